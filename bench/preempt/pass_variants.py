#!/usr/bin/env python3
"""Measurement-only variants built by the pass itself: each corpus file of
the overhead manifest is compiled again by gmem-analyze --emit-ptx under a
set of GMEM_CHECKPOINT_* environment settings (experimental pass options),
fitted and assembled as bench/preempt/stage.py does, and every kernel whose
full clone or alternate form comes out different gets a manifest line of its
own, `name=<kernel>@<variant>`, beside its base line, so that
`preempt_bench overhead` times both against the kernel in one run (as
ptx_variants.py's PTX edits are timed).

Unlike ptx_variants.py's edits these variants are complete, preemptible
builds: the pass made them, so the same lines can also run the stops and
correctness parts.

Usage: pass_variants.py [--build-dir build] STAGE VARIANT:ENV=VAL[,ENV=VAL...]...
                        [--only NAME,...]
Writes STAGE/var/<variant>/<file>.ptx (+ .cubin) and STAGE/var_manifest.txt
(base lines first, then each variant's), and prints which kernels changed.
"""
import argparse
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import stage as preempt_stage  # noqa: E402  (ptxas with the clones' register fit)

FORMS = ('pre', 'pra', 'prf', 'prl')


def clone_texts(text, sym):
    """{form: body text without comments} of the clones of `sym` in a PTX file."""
    out = {}
    for form in FORMS:
        m = re.search(r'^\.visible \.entry __gmem_' + form + '_' + re.escape(sym) + r'\((.*?)^\}',
                      text, re.S | re.M)
        if m:  # comments (block names, which LLVM numbers) left out
            out[form] = re.sub(r'//[^\n]*', '', m.group(1))
    return out


def parse_variant(spec):
    name, _, envs = spec.partition(':')
    if not name or not envs or not re.fullmatch(r'[A-Za-z0-9_-]+', name):
        raise SystemExit(f'error: variant "{spec}": want NAME:ENV=VAL[,ENV=VAL...]')
    env = {}
    for kv in envs.split(','):
        k, eq, v = kv.partition('=')
        if not eq or not k.startswith('GMEM_'):
            raise SystemExit(f'error: variant "{spec}": "{kv}" is not GMEM_...=VALUE')
        env[k] = v
    return name, env


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--build-dir', default=os.path.join(REPO, 'build'))
    ap.add_argument('--only', default='', help='comma-separated manifest names to consider')
    ap.add_argument('stage')
    ap.add_argument('variants', nargs='+')
    a = ap.parse_args()
    tool = os.path.join(os.path.abspath(a.build_dir), 'bin', 'gmem-analyze')
    if not os.access(tool, os.X_OK):
        raise SystemExit(f'error: no gmem-analyze at {tool} (build first)')
    variants = [parse_variant(v) for v in a.variants]
    stage_json = json.load(open(os.path.join(a.stage, 'corpus', 'stage.json')))
    source_of = {os.path.basename(f['ptx']): os.path.join(REPO, f['source'])
                 for f in stage_json['files'] if f.get('ptx')}
    manifest = [l.strip() for l in open(os.path.join(a.stage, 'overhead_manifest.txt'))
                if l.strip() and not l.startswith('#')]
    only = set(filter(None, a.only.split(',')))
    entries = []
    for line in manifest:
        f = dict(kv.split('=', 1) for kv in line.split() if '=' in kv and not kv.startswith('args'))
        if not only or f['name'] in only:
            entries.append((line, f))
    missing = only - {f['name'] for _, f in entries}
    if missing:
        raise SystemExit('error: not in the overhead manifest: ' + ', '.join(sorted(missing)))

    built = {}  # (variant, ptx basename) -> path or None
    base_lines, var_lines = [], []
    for line, f in entries:
        base_ptx = os.path.join(a.stage, f['ptx'])
        base = clone_texts(open(base_ptx).read(), f['sym'])
        changed_any = False
        for name, env in variants:
            key = (name, os.path.basename(f['ptx']))
            if key not in built:
                src = source_of.get(key[1])
                if not src:
                    raise SystemExit(f'error: no source for {f["ptx"]} in corpus/stage.json')
                out_dir = os.path.join(a.stage, 'var', name)
                os.makedirs(out_dir, exist_ok=True)
                out = os.path.join(out_dir, key[1])
                cmd = [tool, src, '--emit-ptx', out]
                p = subprocess.run(cmd, env=dict(os.environ, **env), stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT, universal_newlines=True)
                if p.returncode != 0:
                    sys.stderr.write(p.stdout[-3000:])
                    raise SystemExit(f'error: {" ".join(cmd)} failed (rc {p.returncode})')
                preempt_stage.ptxas(out)
                built[key] = out
            out = built[key]
            if clone_texts(open(out).read(), f['sym']) == base:
                continue
            changed_any = True
            rel = os.path.relpath(out, a.stage)
            var_lines.append(line.replace('ptx=' + f['ptx'], 'ptx=' + rel)
                             .replace('name=' + f['name'], f'name={f["name"]}@{name}'))
            print(f'{f["name"]}: {name} differs')
        if changed_any:
            base_lines.append(line)
    with open(os.path.join(a.stage, 'var_manifest.txt'), 'w') as o:
        o.write('\n'.join(base_lines + var_lines) + '\n')
    print(f'{len(base_lines) + len(var_lines)} manifest lines -> {a.stage}/var_manifest.txt')
    return 0


if __name__ == '__main__':
    sys.exit(main())
