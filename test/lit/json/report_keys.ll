; --json: the report of docs/JSON_SCHEMA.md. Checks the top-level keys, one
; kernel's keys (symbol, demangled name, plain_name, target, class), every
; ARG key and the REGION shape for a bounded and an unaccessed parameter,
; and a module global in "globals" (whose entries carry "symbol" rather
; than the "name" that docs/JSON_SCHEMA.md promises, and no index/type).
; RUN: %gmem-analyze %s --json > %t.json
; RUN: FileCheck %s < %t.json
; The output is valid JSON; field values checked structurally.
; RUN: %python -c "import json,sys; d=json.load(open(sys.argv[1])); k=d['kernels'][0]; a=k['args']; \
; RUN:   assert d['schema']==1 and len(d['kernels'])==1; \
; RUN:   assert a[2]['read_region']['kind']=='bounded' and a[2]['read_region']['ranges'][0]['lo']=='0'; \
; RUN:   assert a[3]['write_region']['kind']=='bounded' and a[3]['read_region'] is None; \
; RUN:   assert a[0]['pointer'] is False and a[0]['read_region'] is None; \
; RUN:   assert k['globals'][0]['symbol']=='table' and k['globals'][0]['read_region']['kind']=='bounded'; \
; RUN:   print('ok')" %t.json | FileCheck %s --check-prefix=PY
; The plugin's gmem-print-json pass prints the same kernel object.
; RUN: %opt -load-pass-plugin=%gmem_plugin -passes=gmem-print-json -disable-output %s | FileCheck %s

; PY: ok

; CHECK:      "schema": 1,
; CHECK-NEXT: "inputs": ["{{.*}}report_keys.ll"],
; CHECK-NEXT: "kernels": [
; CHECK-NEXT:   {
; CHECK-NEXT:     "symbol": "_Z5scaleifPKfPf",
; CHECK-NEXT:     "name": "scale(int, float, float const*, float*)",
; CHECK-NEXT:     "plain_name": "scale",
; CHECK-NEXT:     "target": "nvptx",
; CHECK-NEXT:     "class": "conditional",
; CHECK-NEXT:     "class_reason": "reads '{{x|table}}' and writes 'y': idempotent when they do not overlap at a launch",
; CHECK-NEXT:     "args": [
; CHECK-NEXT:       {"index": 0, "name": "n", "type": "i32", "pointer": false, "read": false, "write": false, "atomic": false, "read_region": null, "write_region": null, "rw_disjoint_proven": false},
; CHECK-NEXT:       {"index": 1, "name": "a", "type": "f32", "pointer": false,
; CHECK-NEXT:       {"index": 2, "name": "x", "type": "ptr", "pointer": true, "read": true, "write": false, "atomic": false, "read_region": {"kind": "bounded", "ranges": [{"lo": "0", "hi": "4*min(blockDim.x*gridDim.x - 1, n - 1) + 4"}], {{.*}}"reason": ""}, "write_region": null, "rw_disjoint_proven": false},
; CHECK-NEXT:       {"index": 3, "name": "y", "type": "ptr", "pointer": true, "read": false, "write": true, "atomic": false, "read_region": null, "write_region": {"kind": "bounded", "ranges": [{"lo": "0", "hi": "4*min(blockDim.x*gridDim.x - 1, n - 1) + 4"}], {{.*}}"rw_disjoint_proven": false}
; CHECK-NEXT:     ],
; CHECK-NEXT:     "globals": [
; CHECK-NEXT:       {"symbol": "table", "read": true, "write": false, "atomic": false, "read_region": {"kind": "bounded", "ranges": [{"lo": "0", "hi": "4*min(blockDim.x*gridDim.x - 1, n - 1) + 4"}], {{.*}}"write_region": null, "rw_disjoint_proven": false}
; CHECK-NEXT:     ],
; CHECK:          "unknown_read": null,
; CHECK-NEXT:     "unknown_write": null
; CHECK-NEXT:   }
; CHECK-NEXT: ]

target triple = "nvptx64-nvidia-cuda"

@table = addrspace(1) global [16 x float] zeroinitializer, align 4

; y[i] = a * x[i] * table[i] for i < n
define ptx_kernel void @_Z5scaleifPKfPf(i32 %n, float %a, ptr %x, ptr %y) {
entry:
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bdim = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %base = mul i32 %bid, %bdim
  %i = add i32 %base, %tid
  %in = icmp slt i32 %i, %n
  br i1 %in, label %body, label %exit

body:
  %idx = sext i32 %i to i64
  %px = getelementptr inbounds float, ptr %x, i64 %idx
  %v = load float, ptr %px, align 4
  %pt = getelementptr inbounds float, ptr addrspace(1) @table, i64 %idx
  %t = load float, ptr addrspace(1) %pt, align 4
  %m = fmul float %v, %a
  %m2 = fmul float %m, %t
  %py = getelementptr inbounds float, ptr %y, i64 %idx
  store float %m2, ptr %py, align 4
  br label %exit

exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
