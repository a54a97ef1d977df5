"""Unit tests of ptx_fit (no ptxas needed): python3 -m unittest test_ptx_fit"""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ptx_fit  # noqa: E402

PTX = """
.visible .entry _Z1kPf(
\t.param .u64 _Z1kPf_param_0
)
{
\tret;
}
.visible .entry __gmem_pre__Z1kPf(
\t.param .u64 __gmem_pre__Z1kPf_param_0,
\t.param .u64 __gmem_pre__Z1kPf_param_1
)
{
\tret;
}
.visible .entry __gmem_prl__Z1kPf(
\t.param .u64 __gmem_prl__Z1kPf_param_0,
\t.param .u64 __gmem_prl__Z1kPf_param_1
)
.maxntid 256, 1, 1
{
\tret;
}
"""

PTXAS_V = """ptxas info    : Compiling entry function '_Z1kPf' for 'sm_90'
ptxas info    : Used 32 registers, used 0 barriers
ptxas info    : Compiling entry function '__gmem_pre__Z1kPf' for 'sm_90'
ptxas info    : Function properties for __gmem_pre__Z1kPf
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 40 registers, used 1 barriers
ptxas info    : Compiling entry function '__gmem_prl__Z1kPf' for 'sm_90'
ptxas info    : Used 48 registers, used 1 barriers
"""


class RegisterMath(unittest.TestCase):
    def test_warps(self):
        self.assertEqual(ptx_fit.warps_per_sm(16), 64)
        self.assertEqual(ptx_fit.warps_per_sm(32), 64)
        self.assertEqual(ptx_fit.warps_per_sm(33), 51)  # rounds up to 40
        self.assertEqual(ptx_fit.warps_per_sm(40), 51)
        self.assertEqual(ptx_fit.warps_per_sm(255), 8)

    def test_cap_keeps_the_kernels_warps(self):
        for regs in (1, 16, 22, 32, 33, 40, 64, 100, 200, 255):
            cap = ptx_fit.register_cap(regs)
            self.assertGreaterEqual(cap, regs if regs % 8 == 0 else regs - regs % 8)
            self.assertEqual(ptx_fit.warps_per_sm(cap), ptx_fit.warps_per_sm(regs))
            if cap + 8 <= 255:  # the largest such count
                self.assertLess(ptx_fit.warps_per_sm(cap + 8), ptx_fit.warps_per_sm(regs))
        self.assertEqual(ptx_fit.register_cap(22), 32)
        self.assertEqual(ptx_fit.register_cap(40), 40)


class Planning(unittest.TestCase):
    def test_only_clones_that_lose_occupancy_and_have_no_bounds(self):
        regs = ptx_fit.entry_registers(PTXAS_V)
        self.assertEqual(regs, {"_Z1kPf": 32, "__gmem_pre__Z1kPf": 40, "__gmem_prl__Z1kPf": 48})
        # The light twin has launch bounds: the programmer's, left alone.
        self.assertEqual(ptx_fit.plan(regs, PTX), [("__gmem_pre__Z1kPf", 40, 32)])

    def test_twins_fit_only_the_alternate_and_free_forms(self):
        regs = {"_Z1kPf": 32, "__gmem_pre__Z1kPf": 40, "__gmem_pra__Z1kPf": 40,
                "__gmem_prf__Z1kPf": 48}
        ptx = PTX + PTX.replace("__gmem_pre_", "__gmem_pra_").split(".visible .entry __gmem_prl_")[0] \
            + PTX.replace("__gmem_pre_", "__gmem_prf_").split(".visible .entry __gmem_prl_")[0]
        self.assertEqual(ptx_fit.plan(regs, ptx, ptx_fit.TWIN_PREFIXES),
                         [("__gmem_pra__Z1kPf", 40, 32), ("__gmem_prf__Z1kPf", 48, 32)])
        self.assertEqual([c[0] for c in ptx_fit.plan(regs, ptx)],
                         ["__gmem_pra__Z1kPf", "__gmem_pre__Z1kPf", "__gmem_prf__Z1kPf"])

    def test_ptx_without_twins_needs_no_ptxas_run(self):
        import tempfile
        with tempfile.NamedTemporaryFile("w", suffix=".ptx", delete=False) as f:
            f.write(PTX)  # a full clone and a light twin only
        try:
            self.assertEqual(ptx_fit.fit_clone_registers(f.name, "/nonexistent/ptxas", "sm_90"), [])
        finally:
            os.unlink(f.name)

    def test_same_occupancy_needs_no_cap(self):
        regs = {"_Z1kPf": 16, "__gmem_pre__Z1kPf": 30}
        self.assertEqual(ptx_fit.plan(regs, PTX), [])

    def test_unknown_kernel_or_entry_is_left_alone(self):
        self.assertEqual(ptx_fit.plan({"__gmem_pre__Z1kPf": 64}, PTX), [])
        self.assertEqual(ptx_fit.plan({"_Z1gv": 16, "__gmem_pre__Z1gv": 64}, PTX), [])

    def test_apply_puts_maxnreg_between_parameters_and_body(self):
        out = ptx_fit.apply(PTX, [("__gmem_pre__Z1kPf", 40, 32)])
        i = out.index(".entry __gmem_pre__Z1kPf(")
        self.assertIn(")\n.maxnreg 32\n{", out[i:])
        self.assertEqual(out.count(".maxnreg"), 1)
        self.assertTrue(ptx_fit.has_bounds(out, "__gmem_pre__Z1kPf"))
        self.assertFalse(ptx_fit.has_bounds(out, "_Z1kPf"))

    def test_twins_by_default_and_off_when_asked(self):
        saved = os.environ.pop("GMEM_FIT_CLONE_REGS", None)
        try:
            self.assertEqual(ptx_fit.fitted_prefixes(), ptx_fit.TWIN_PREFIXES)
            os.environ["GMEM_FIT_CLONE_REGS"] = "0"
            self.assertFalse(ptx_fit.enabled())
            self.assertEqual(ptx_fit.fit_clone_registers("/nonexistent.ptx", "ptxas", "sm_90"), [])
            os.environ["GMEM_FIT_CLONE_REGS"] = "1"
            self.assertTrue(ptx_fit.enabled())
            self.assertEqual(ptx_fit.fitted_prefixes(), ptx_fit.CLONE_PREFIXES)
            os.environ["GMEM_FIT_CLONE_REGS"] = "twins"
            self.assertEqual(ptx_fit.fitted_prefixes(), ptx_fit.TWIN_PREFIXES)
            os.environ["GMEM_FIT_CLONE_REGS"] = "bogus"
            with self.assertRaises(ValueError):
                ptx_fit.enabled()
        finally:
            os.environ.pop("GMEM_FIT_CLONE_REGS", None)
            if saved is not None:
                os.environ["GMEM_FIT_CLONE_REGS"] = saved


if __name__ == "__main__":
    unittest.main()
