# lit configuration for gmem's FileCheck tests.
import os
import lit.formats

config.name = "gmem"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".ll", ".cu", ".hip", ".test"]
config.excludes = ["Inputs", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.gmem_obj_root, "test", "lit")

# Tools: the project's, then LLVM 19's (FileCheck, not, count, opt).
config.environment["PATH"] = os.pathsep.join(
    [config.gmem_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", "")])
config.substitutions.append(("%gmem-analyze", os.path.join(config.gmem_tools_dir, "gmem-analyze")))
config.substitutions.append(("%gmem_plugin", config.gmem_plugin))
config.substitutions.append(("%opt", os.path.join(config.llvm_tools_dir, "opt")))
config.substitutions.append(("%clang", os.path.join(config.llvm_tools_dir, "clang++")))
config.substitutions.append(("%python", config.python_executable))
config.substitutions.append(("%gmem_build", config.gmem_obj_root))
config.substitutions.append(("%corpus", os.path.join(config.gmem_src_root, "test", "corpus")))
