#!/usr/bin/env python3
"""A per-event cost model: projected time on a named CPU for every mechanism
and op, from the bench's path lengths and the profile's event counts, with
the published end-to-end figures beside their projections.

usage: model.py CONSTANTS.json PUBLISHED.json LATEST.json PROFILE.json OUTDIR

    cycles = CPI * (insns - exits * floor) + exits * vm_roundtrip
             + sum over the other events of count * cycles(event)

insns: the op's path length (QEMU -icount), from the run without the NRIP
artefact (runs.nonrip) where it ran, else the raw one (said per row).
floor: the hypercall's bare exit in the same run, the emulated VMCALL round
trip; each VM exit's is replaced by the published one (vm_roundtrip).
counts: the profile's, per op; for an op it also counted on one vCPU
(udp-rr: profile-counts-1cpu) those, since the path lengths are one vCPU's
too (-icount): there a call that sleeps does, on two it may not.
CPI: derived once, from the published native getpid (constants' "syscall")
over this run's native getppid path length; printed, and the projections at
half and twice it beside.  Every constant comes from constants.json with
its source; published.json only checks.  Writes OUTDIR/latest-model.md and
latest-model.json; prints the markdown.
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..',
                                'common', 'py'))
import results  # noqa: E402

OPS = ['getppid', 'pipe-64B', 'pread-4K', 'open-fstat-close', 'mixed', 'udp-rr']


def path_lengths(latest):
    """{mech: {op: (insns, source run)}}: artefact-free where measured."""
    runs = latest['runs']
    out = {}
    for name in ('icount1', 'nonrip'):
        run = runs.get(name)
        if not run:
            continue
        for mech, ops in run['per_op'].items():
            for op, v in ops.items():
                out.setdefault(mech, {})[op] = (v['median_insns'], name)
    return out


def cycles(consts, insns, counts, floor, cpi):
    """The model for one op; returns (cycles, terms) so a reader can check."""
    ev = consts['events']
    exits = counts.get(ev['vm_roundtrip']['counter'], 0.0)
    terms = {'instructions': cpi * (insns - exits * floor),
             'vm_roundtrip': exits * ev['vm_roundtrip']['cycles']}
    for name, e in ev.items():
        if name in ('vm_roundtrip', 'syscall'):
            continue	# the exits above; a syscall's cost is in the CPI
        terms[name] = counts.get(e['counter'], 0.0) * e['cycles']
    return sum(terms.values()), terms


def project(consts, latest, profile):
    """Every (mech, op) with a path length and counts: cycles and ns at the
    model's CPU, at the derived CPI and at half and twice it."""
    paths = path_lengths(latest)
    counts = profile['counts']
    counts1 = profile.get('counts_1cpu', {})
    native = paths.get('native', {}).get('getppid')
    floor = paths.get('hypercall', {}).get('bare-exit')
    if not native or not floor:
        raise ValueError('the run has no native getppid or hypercall bare-exit path length')
    cpi = consts['events']['syscall']['cycles'] / native[0]
    ghz = consts['cpu']['ghz']
    rows = {}
    for mech, ops in sorted(paths.items()):
        for op, (insns, run) in ops.items():
            c1 = counts1.get(mech, {}).get(op)
            c = c1 if c1 is not None else counts.get(mech, {}).get(op)
            if c is None or op == 'bare-exit':
                continue
            cyc, terms = cycles(consts, insns, c, floor[0], cpi)
            lo, _ = cycles(consts, insns, c, floor[0], cpi / 2)
            hi, _ = cycles(consts, insns, c, floor[0], cpi * 2)
            rows.setdefault(mech, {})[op] = {
                'cycles': cyc, 'ns': cyc / ghz, 'ns_cpi_half': lo / ghz,
                'ns_cpi_double': hi / ghz, 'insns': insns, 'insns_from': run,
                'counts_from': 'one vCPU' if c1 is not None else 'two vCPUs',
                'terms': terms}
    return {'cpi': cpi, 'floor_insns': floor[0], 'floor_from': floor[1],
            'native_getppid_insns': native[0], 'ghz': ghz, 'rows': rows}


def check(published, proj):
    """Each published figure beside its projection, with the error."""
    out = []
    for p in published['figures']:
        row = dict(p)
        m = proj['rows'].get(p.get('mech') or '', {}).get(p.get('op') or '')
        if not p.get('mech') or m is None:
            row['projected'] = None
            row['why_none'] = p.get('na') or 'no path length or counts for it in this run'
        else:
            if p['unit'] == 'ns':
                got = m['ns']
            elif p['unit'] == 'cycles':
                got = m['cycles']
            elif p['unit'] == 'trans/s':
                got = 1e9 / m['ns']
            else:
                raise ValueError(f'unit {p["unit"]}')
            row['projected'] = got
            row['error_pct'] = 100 * (got - p['value']) / p['value']
        out.append(row)
    return out


def fmt(x):
    return f'{x:,.0f}' if x >= 100 else f'{x:.1f}'


def counts_note(proj):
    """Which counts each op's projections used: an op counted on one vCPU
    uses those, and any mechanism that had none there is named."""
    one = sorted({op for ops in proj['rows'].values() for op, r in ops.items()
                  if r.get('counts_from') == 'one vCPU'})
    if not one:
        return 'the profile\'s on two vCPUs.'
    fell = sorted(f'{m} {op}' for m, ops in proj['rows'].items() for op, r in ops.items()
                  if op in one and r.get('counts_from') != 'one vCPU')
    return ('the profile\'s on two vCPUs, except for ' + ', '.join(one) + ', counted on one '
            'vCPU as the path lengths are measured' +
            (f' (not counted there, so two vCPUs\' counts: {", ".join(fell)})' if fell else '') +
            '.')


def markdown(consts, proj, checks, source):
    md = ['# A per-event cost model, checked against published figures', '',
          f'- inputs: {source}',
          f'- CPU projected: {consts["cpu"]["name"]}, {proj["ghz"]} GHz '
          f'({consts["cpu"]["ghz_source"]})',
          f'- CPI {proj["cpi"]:.2f}: {consts["events"]["syscall"]["cycles"]} cycles of a '
          f'published native getpid over this run\'s native getppid, '
          f'{proj["native_getppid_insns"]:.0f} instructions',
          f'- each VM exit: the emulated round trip ({proj["floor_insns"]:.0f} instructions, '
          f'the hypercall\'s bare exit, {proj["floor_from"]} run) replaced by '
          f'{consts["events"]["vm_roundtrip"]["cycles"]} cycles (kvm-unit-tests vmcall)', '',
          '## Projected time per op (ns)', '',
          '| mechanism | ' + ' | '.join(OPS) + ' |', '|---|' + '---|' * len(OPS)]
    for mech, ops in proj['rows'].items():
        cells = []
        for op in OPS:
            r = ops.get(op)
            raw = r and r['insns_from'] != 'nonrip' and r['terms']['vm_roundtrip'] > 0
            cells.append(f'{fmt(r["ns"])} [{fmt(r["ns_cpi_half"])}, {fmt(r["ns_cpi_double"])}]'
                         + (' raw' if raw else '') if r else '-')
        md.append(f'| {mech} | ' + ' | '.join(cells) + ' |')
    md += ['', 'Projected ns at the derived CPI [at half, at twice it].  The path lengths of '
           'the VM mechanisms come from the run without the NRIP artefact (bench/patches); '
           '"raw" marks a VM row that had none (the NRIP decode still in); the other '
           'mechanisms never take a VMMCALL.  Event counts: ' + counts_note(proj), '',
           '## The published figures beside their projections', '',
           '| figure | CPU | published | projected | error |', '|---|---|---|---|---|']
    for c in checks:
        pub = f'{fmt(c["value"])} {c["unit"]}'
        if c['projected'] is None:
            md.append(f'| {c["what"]} | {c["cpu"]} | {pub} | n/a: {c["why_none"]} | - |')
        else:
            md.append(f'| {c["what"]} ({c["mech"]}, {c["op"]}) | {c["cpu"]} | {pub} | '
                      f'{fmt(c["projected"])} | {c["error_pct"]:+.0f}% |')
    md += ['', 'Every constant is in bench/model/constants.json with its source; none was set '
           'from a figure of this table (bench/model/published.json, each with its source).  '
           'An error is reported, not tuned away: bench/README.md explains the large ones.', '']
    return md


def main(argv):
    if len(argv) != 6:
        print(__doc__, file=sys.stderr)
        return 2
    consts = json.load(open(argv[1]))
    published = json.load(open(argv[2]))
    latest = results.load(argv[3], 'bench')
    profile = results.load(argv[4], 'profile')
    proj = project(consts, latest, profile)
    checks = check(published, proj)
    md = markdown(consts, proj, checks, f'{argv[3]}, {argv[4]}')
    text = '\n'.join(md)
    print(text)
    open(os.path.join(argv[5], 'latest-model.md'), 'w').write(text + '\n')
    results.write(os.path.join(argv[5], 'latest-model.json'), 'model',
                  {'projection': proj, 'checks': checks})
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
