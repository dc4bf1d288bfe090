#!/usr/bin/env python3
"""bench/model/model.py on a fixture whose answers are worked out by hand:
the CPI it derives, the exit replaced by the published round trip, the
event terms, the artefact-free run preferred, the validation error.  Run by
make check-harness (and so by make test).  Prints TAP-like lines; exits 1
on any mismatch."""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

CONSTS = {
    'cpu': {'name': 'fixture CPU', 'ghz': 2.0, 'ghz_source': 'fixture', 'kpti': False},
    'cpi': {'value': 1.0, 'source': 'fixture'},
    'events': {
        'vm_roundtrip': {'cycles': 1500, 'counter': 'vm-exits'},
        'syscall': {'cycles': 100, 'counter': 'syscalls'},
        'fpu_swap': {'cycles': 40, 'counter': 'kvm-fpu-swaps'},
        'cr3_switch': {'cycles': 100, 'counter': 'cr3-switches+flushes'},
        'context_switch': {'cycles': 0, 'counter': 'context-switches'},
    }}


def op(insns):
    return {'median_insns': insns, 'p90_insns': insns, 'n': 3}


LATEST = {'schema': 2, 'kind': 'bench', 'meta': {}, 'mechanisms': [], 'runs': {
    # Raw: the hypercall's floor and getppid 800 instructions longer
    # (the decode); the artefact-free run below must win for them.
    'icount1': {'unit': 'insns', 'above_floor_insns': {}, 'per_op': {
        'native': {'getppid': op(200)},
        'hypercall': {'bare-exit': op(3000), 'getppid': op(4000)},
        'exit-pio': {'bare-exit': op(5000), 'getppid': op(6000)},
        'unotify': {'getppid': op(2000)}}},
    'nonrip': {'unit': 'insns', 'above_floor_insns': {}, 'per_op': {
        'hypercall': {'bare-exit': op(2200), 'getppid': op(3200)}}}}}

PROFILE = {'schema': 2, 'kind': 'profile', 'path': {}, 'counts': {
    'native': {'getppid': {'vm-exits': 0, 'syscalls': 1}},
    'hypercall': {'getppid': {'vm-exits': 1, 'syscalls': 1}},
    'exit-pio': {'getppid': {'vm-exits': 1, 'kvm-fpu-swaps': 2, 'syscalls': 2}},
    'unotify': {'getppid': {'context-switches': 2, 'cr3-switches+flushes': 2}}}}

PUBLISHED = {'figures': [
    {'what': 'hc', 'value': 1000, 'unit': 'ns', 'mech': 'hypercall', 'op': 'getppid',
     'cpu': 'x', 'source': 'x'},
    {'what': 'rate', 'value': 1e6, 'unit': 'trans/s', 'mech': 'exit-pio', 'op': 'getppid',
     'cpu': 'x', 'source': 'x'},
    {'what': 'other', 'value': 5, 'unit': 'ns', 'mech': None, 'op': None, 'na': 'not here',
     'cpu': 'x', 'source': 'x'}]}

# By hand.  CPI = 100 cycles / 200 native instructions = 0.5.
# hypercall getppid: 0.5 * (3200 - 1 * 2200) + 1500 = 2000 cycles, 1000 ns.
# exit-pio getppid (raw; the floor is the hypercall's artefact-free one):
#   0.5 * (6000 - 2200) + 1500 + 2 * 40 = 3480 cycles, 1740 ns.
# unotify: 0.5 * 2000 + 2 * 100 = 1200 cycles, 600 ns.
# native: 0.5 * 200 = 100 cycles, 50 ns.
WANT = {('native', 'getppid'): 100, ('hypercall', 'getppid'): 2000,
        ('exit-pio', 'getppid'): 3480, ('unotify', 'getppid'): 1200}


def main():
    fails = 0

    def ok(cond, what):
        nonlocal fails
        print(('ok' if cond else 'not ok') + ' - model: ' + what)
        fails += not cond

    with tempfile.TemporaryDirectory() as d:
        paths = []
        for name, obj in (('c.json', CONSTS), ('p.json', PUBLISHED), ('l.json', LATEST),
                          ('f.json', PROFILE)):
            paths.append(os.path.join(d, name))
            json.dump(obj, open(paths[-1], 'w'))
        r = subprocess.run([sys.executable, os.path.join(HERE, 'model.py'), *paths, d],
                           capture_output=True, text=True)
        ok(r.returncode == 0, f'runs on the fixture (exit {r.returncode}) {r.stderr.strip()[-200:]}')
        if r.returncode:
            return 1
        out = json.load(open(os.path.join(d, 'latest-model.json')))
    proj = out['projection']
    ok(abs(proj['cpi'] - 0.5) < 1e-9, f'CPI from the native getpid: 0.5 (got {proj["cpi"]})')
    ok(proj['floor_insns'] == 2200 and proj['floor_from'] == 'nonrip',
       f'the floor is the artefact-free bare exit (got {proj["floor_insns"]}, {proj["floor_from"]})')
    for (m, o), want in WANT.items():
        got = proj['rows'][m][o]['cycles']
        ok(abs(got - want) < 1e-6, f'{m} {o}: {want} cycles (got {got})')
    hc = proj['rows']['hypercall']['getppid']
    ok(abs(hc['ns'] - 1000) < 1e-6 and abs(hc['ns_cpi_double'] - 1250) < 1e-6,
       f'ns at 2 GHz, and at twice the CPI: 1000, 1250 (got {hc["ns"]}, {hc["ns_cpi_double"]})')
    ok(hc['insns_from'] == 'nonrip', 'the artefact-free path length is preferred')
    c = {x['what']: x for x in out['checks']}
    ok(abs(c['hc']['error_pct']) < 1e-9, f'error 0% where the projection meets the figure '
       f'(got {c["hc"]["error_pct"]})')
    ok(abs(c['rate']['projected'] - 1e9 / 1740) < 1e-6 and
       abs(c['rate']['error_pct'] - 100 * (1e9 / 1740 - 1e6) / 1e6) < 1e-9,
       'a rate is 1e9 / ns, its error against the published rate')
    ok(c['other']['projected'] is None and c['other']['why_none'] == 'not here',
       'a figure no mechanism measures is n/a with its reason')
    print(f'# model: {"all passed" if not fails else f"{fails} failed"}')
    return 1 if fails else 0


if __name__ == '__main__':
    sys.exit(main())
