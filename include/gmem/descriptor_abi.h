/* gmem compiler -> runtime descriptor ABI, version 2.
 *
 * One descriptor blob describes one kernel. It is written by the gmem pass
 * (and gmem-analyze) and read by libgmemrt without LLVM. All integers are
 * little-endian; "uleb"/"sleb" are LEB128 varints.
 *
 *   blob    := header payload
 *   header  := u32 magic = GMEM_DESC_MAGIC ("GMD1" read as bytes 'G','M','D','1')
 *              u16 version = GMEM_DESC_VERSION
 *              u16 flags   (readers reject unknown bits):
 *                          bit0 GMEM_DESC_FLAG_VARIANTS: variants follow the body
 *                          bit1 GMEM_DESC_FLAG_ALIAS_OK: alias pairs follow them
 *              u32 payload_size (bytes that follow the header)
 *   payload := body [variants] [alias_ok]
 *   alias_ok := uleb n (1..64), (uleb a, uleb b)*n: pointer parameters a < b
 *              that may hold the same address at a launch, the other objects
 *              apart: the kernel's reads and writes through both were proven
 *              as one object's (an out-of-place kernel called in place)
 *   variants := uleb n (1..64), (uleb natoms (0..8), atom*natoms, body)*n
 *   atom    := uleb param, u8 bits (compared width), u8 view (gmem_guard_view),
 *              u8 pred (gmem_guard_pred), uleb constant (its bits at that width;
 *              floats: IEEE bits), [uleb mask: view MASK only, nonzero]
 *   body    := str symbol, str name, str plain_name, str target,
 *              u8 class (gmem_idempotence_class), str class_reason,
 *              uleb nparams, param*, uleb nglobals, param*,
 *              uleb nfields, param*,
 *              region unknown_read, region unknown_write
 *   param   := str name, u8 scalar_type (gmem_scalar_type),
 *              u8 flags (bit0 pointer, bit1 atomic, bit2 rw_disjoint),
 *              region read, region write, checks disjoint_checks,
 *              uleb byte_size (by-value aggregates: bytes of the parameter; else 0),
 *              sleb field_param (-1, or for a pointer FIELD: the by-value parameter
 *              holding it), uleb field_offset (byte offset of that pointer in it)
 *   region  := u8 kind (gmem_region_kind), str reason,
 *              uleb nranges, (expr lo, expr hi)*, checks
 *   checks  := uleb n, (expr value, sleb min, sleb max, u8 flags)*
 *              flags bit0: "assumed" (geometry-only, or failing it is a signed
 *              overflow / division by zero in the kernel: UB)
 *   expr    := u8 op (gmem_expr_op), then
 *                CONST: sleb value | VAR: uleb packed_var |
 *                ADD/MUL/SMIN/SMAX: uleb n, expr*n | UDIV/SDIV: expr expr
 *   str     := uleb length, bytes (UTF-8, not NUL-terminated)
 *
 * packed_var = kind << 24 | index; kind 0 gridDim (index = dimension 0..2),
 * 1 blockDim, 2 scalar argument (index = parameter position; its value is
 * the parameter's bits sign-extended from the parameter's width), 3 integer
 * field of a by-value aggregate parameter (index = param << 16 | log2(bytes)
 * << 14 | byte offset; read little-endian from the parameter's bytes and
 * sign-extended). Fields are how struct and functor (lambda) parameters,
 * e.g. PyTorch-style parameter packs, get exact regions.
 *
 * Ranges are half-open byte ranges relative to the pointer parameter (or the
 * global's address). A region with kind BOUNDED is exact only for a launch
 * where every check's value lies in [min, max]; otherwise the runtime widens
 * it to the whole allocation. Evaluation is in int64 with overflow detection;
 * an overflow also widens. This keeps every region a superset of the truth.
 *
 * Where a descriptor lives, and why. The pass stores each kernel's blob in
 * the device module itself, as a global-memory byte array named
 *   __gmem_desc_<mangled kernel name>
 * The runtime meets kernels only as CUfunction (or CUkernel) handles, in
 * every path: programs built with clang + the plugin (host and device halves
 * from gmem-clang++), modules loaded from PTX/cubin with cuModuleLoadData or
 * cuLibraryLoadData, and programs interposed with LD_PRELOAD. From any such
 * handle cuFuncGetModule + cuFuncGetName + cuModuleGetGlobal reach the blob,
 * read once with one device-to-host copy at the kernel's first launch and
 * cached per handle. A host-side registration emitted by the plugin's host
 * half would only cover the first path. Modules built without gmem simply
 * lack the global: their launches pass through uninstrumented; loaders that
 * do not know gmem ignore it.
 *
 * Launch variants (compiler/include/gmem/compiler/LaunchGuard.h): a
 * variant's body describes the kernel at launches where each of its atoms
 * holds, a condition on one scalar parameter's value (`beta == 0`,
 * `bias == null`): the same parameters, with that condition folded. The
 * runtime uses, per launch, the variant with the best class whose atoms all
 * hold, else the main body. Blobs without variants keep flags 0, so readers
 * of the first version-2 format still read them.
 *
 * Versioning: the version is bumped on any incompatible change; a runtime
 * that meets another version reports it once and leaves the kernel
 * uninstrumented.
 */
#ifndef GMEM_DESCRIPTOR_ABI_H
#define GMEM_DESCRIPTOR_ABI_H

#include <stdint.h>

#define GMEM_DESC_MAGIC 0x31444d47u /* "GMD1" */
#define GMEM_DESC_VERSION 2u
#define GMEM_DESC_HEADER_SIZE 12u
#define GMEM_DESC_FLAG_VARIANTS 1u
#define GMEM_DESC_FLAG_ALIAS_OK 2u

enum gmem_idempotence_class {
  GMEM_CLASS_IDEMPOTENT = 0,
  GMEM_CLASS_CONDITIONAL = 1,
  GMEM_CLASS_NON_IDEMPOTENT = 2,
  GMEM_CLASS_UNKNOWN = 3
};

enum gmem_region_kind {
  GMEM_REGION_EMPTY = 0,
  GMEM_REGION_BOUNDED = 1,
  GMEM_REGION_ALLOCATION = 2,
  GMEM_REGION_ANYTHING = 3
};

enum gmem_scalar_type {
  GMEM_TYPE_PTR = 0, GMEM_TYPE_I8, GMEM_TYPE_I16, GMEM_TYPE_I32, GMEM_TYPE_I64,
  GMEM_TYPE_F16, GMEM_TYPE_F32, GMEM_TYPE_F64, GMEM_TYPE_OTHER
};

enum gmem_expr_op {
  GMEM_EXPR_CONST = 0, GMEM_EXPR_VAR = 1, GMEM_EXPR_ADD = 2, GMEM_EXPR_MUL = 3,
  GMEM_EXPR_SMIN = 4, GMEM_EXPR_SMAX = 5, GMEM_EXPR_UDIV = 6, GMEM_EXPR_SDIV = 7
};

/* Guard atoms (values of gmem::GuardView and gmem::GuardPred). */
enum gmem_guard_view {
  GMEM_GUARD_SAME = 0, GMEM_GUARD_TRUNC, GMEM_GUARD_ZEXT, GMEM_GUARD_SEXT, GMEM_GUARD_BOOL,
  GMEM_GUARD_MASK
};
enum gmem_guard_pred {
  GMEM_GUARD_EQ = 0, GMEM_GUARD_NE, GMEM_GUARD_SLT, GMEM_GUARD_SLE, GMEM_GUARD_SGT,
  GMEM_GUARD_SGE, GMEM_GUARD_ULT, GMEM_GUARD_ULE, GMEM_GUARD_UGT, GMEM_GUARD_UGE,
  GMEM_GUARD_FOEQ, GMEM_GUARD_FONE, GMEM_GUARD_FOLT, GMEM_GUARD_FOLE, GMEM_GUARD_FOGT,
  GMEM_GUARD_FOGE, GMEM_GUARD_FORD, GMEM_GUARD_FUNO, GMEM_GUARD_FUEQ, GMEM_GUARD_FUNE,
  GMEM_GUARD_FULT, GMEM_GUARD_FULE, GMEM_GUARD_FUGT, GMEM_GUARD_FUGE
};

#endif /* GMEM_DESCRIPTOR_ABI_H */
