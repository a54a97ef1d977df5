import os, sys, subprocess, importlib.util
# Stages six corpus kernels with the default check budget and with GMEM_CHECKPOINT_BUDGET=1000000
# into .stage/exp (PTX, cubins, manifest.txt) for preempt_bench overhead. Run from anywhere.
REPO=os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), *[".."] * 5))
sys.path.insert(0, REPO+"/bench/preempt")
spec=importlib.util.spec_from_file_location("st", REPO+"/bench/preempt/stage.py"); st=importlib.util.module_from_spec(spec); spec.loader.exec_module(st)
out=REPO+"/.stage/exp"; os.makedirs(out+"/ptx", exist_ok=True)
kern={"im2col.cu":["_Z6im2coliPKfiiiiiiiPf"],"kmeans.cu":["_Z13kmeans_assignPKfS0_Piiii"],"gemm.cu":["_Z10gemm_naivePKfS0_Pfiii"],"iota.cu":["_Z8iota_i32Piii"],"gemv.cu":["_Z9gemv_warpPKfS0_Pfii"],"gemm_polybench.cu":None}
man=[l for l in open(REPO+"/.stage/preempt/overhead_manifest.txt") if l.startswith("ptx=")]
lines=[]
variants=[("def",{}),("big",{"GMEM_CHECKPOINT_BUDGET":"1000000"})]
for f,syms in kern.items():
  for tag,env in variants:
    e=dict(os.environ); e.pop("GMEM_CHECKPOINT_BUDGET",None); e.update(env)
    ptx="%s/ptx/%s_%s.ptx"%(out,f[:-3],tag)
    subprocess.run([REPO+"/build/bin/gmem-analyze",REPO+"/test/corpus/"+f,"--emit-ptx",ptx],env=e,check=True,stdout=subprocess.DEVNULL)
    st.ptxas(ptx)
    for l in man:
      if ("ptx=corpus/ptx/%s.ptx "%f[:-3]) in l and (syms is None or any(" sym=%s "%s in l for s in syms)):
        l=l.replace("ptx=corpus/ptx/%s.ptx"%f[:-3],"ptx=ptx/%s_%s.ptx"%(f[:-3],tag))
        import re
        l=re.sub(r" name=(\S+)",lambda m:" name=%s@%s"%(m.group(1),tag),l)
        lines.append(l.strip())
open(out+"/manifest.txt","w").write("\n".join(lines)+"\n")
print("\n".join(x[:120] for x in lines)); print(st.FITTED)
