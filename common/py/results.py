"""The host-side result files (bench/results/latest*.json), written and read
in one place, each with a schema version.

Schema 2 (this one): nested objects, no packed keys, units in field names.
  latest.json          {"schema": 2, "kind": "bench", "meta": {...},
                        "mechanisms": [{"name", "vm", "icount_na", "summary"}],
                        "runs": {RUN: {"unit": "ns"|"insns",
                                       "per_op": {MECH: {OP: {"median_<unit>",
                                                              "p90_<unit>", "n"}}},
                                       "above_floor_<unit>": {MECH: {OP: value}}}}}
  latest-programs.json {"schema": 2, "kind": "programs", "programs": [[name, command]],
                        "mechanisms": [...], "n/a": {MECH: reason},
                        "calls": {PROGRAM: {MECH: {CALL: count}}},
                        "runs": {RUN: {"unit", "median_<unit>": {MECH: {PROGRAM: v}},
                                       "ratios": {MECH: {PROGRAM: {"native", "hypercall"}}},
                                       "rounds", "runs", "identical"}}}
  latest-profile.json  {"schema": 2, "kind": "profile",
                        "counts": {MECH: {OP: {COUNTER: per_op}}},
                        "path": {MECH: {OP: {"insns_per_op", "buckets_insns": {BUCKET: v}}}}}
Schema 1 (the runs archived before 2026-12-07's #27: no "schema" key,
"mech/op" and "mech|program" keys, median_ns holding instructions in the
icount runs) is converted on load, so that every archived run reads as a
schema 2 one and nothing that exists reads as "not run".
"""
import csv
import json
import os

SCHEMA = 2


def unit_of(run):
    """A run's unit: the icount runs count guest instructions."""
    return 'insns' if run.startswith('icount') else 'ns'


def write(path, kind, obj):
    obj = dict(obj, schema=SCHEMA, kind=kind)
    with open(path, 'w') as f:
        json.dump(obj, f, indent=1)


def load(path, kind):
    """The file as schema 2, or None if there is none; a file of another
    kind or of an unknown schema is an error, not a silent 'not run'."""
    try:
        with open(path) as f:
            obj = json.load(f)
    except OSError:
        return None
    schema = obj.get('schema', 1)
    if schema == 1:
        obj = UPGRADE_1[kind](obj)
    elif schema != SCHEMA:
        raise ValueError(f'{path}: result schema {schema}, this reader knows 1 and {SCHEMA}')
    if obj.get('kind') != kind:
        raise ValueError(f'{path}: a {obj.get("kind")} result, not {kind}')
    return obj


def _bench_1(old):
    runs = {}
    for run, per in old.get('summary', {}).items():
        u = unit_of(run)
        r = runs.setdefault(run, {'unit': u, 'per_op': {}, f'above_floor_{u}': {}})
        for key, v in per.items():
            mech, op = key.split('/', 1)
            r['per_op'].setdefault(mech, {})[op] = {
                f'median_{u}': v['median_ns'], f'p90_{u}': v['p90_ns'], 'n': v['n']}
    for run, per in old.get('above_floor_ns', {}).items():
        u = unit_of(run)
        r = runs.setdefault(run, {'unit': u, 'per_op': {}, f'above_floor_{u}': {}})
        for key, v in per.items():
            mech, op = key.split('/', 1)
            r[f'above_floor_{u}'].setdefault(mech, {})[op] = v
    mechs = [{k: m[k] for k in ('name', 'vm', 'icount_na', 'summary')}
             for m in old.get('mechanisms', [])]
    return {'schema': SCHEMA, 'kind': 'bench', 'meta': old.get('meta', {}),
            'mechanisms': mechs, 'runs': runs}


def _programs_1(old):
    def unpack(d):
        """'mech|program' keys (a program's name may hold a | itself)."""
        out = {}
        for key, v in d.items():
            mech, prog = key.split('|', 1)
            out.setdefault(mech, {})[prog] = v
        return out
    runs = {}
    for run, data in old.get('runs', {}).items():
        u = unit_of(run)
        runs[run] = dict({k: data[k] for k in ('rounds', 'runs', 'identical') if k in data},
                         unit=u, ratios=unpack(data.get('ratios', {})),
                         **{f'median_{u}': unpack(data.get('medians_ns', {}))})
    calls = {}
    for key, per in old.get('calls', {}).items():
        prog, mech = key.rsplit('|', 1)
        calls.setdefault(prog, {})[mech] = per
    return {'schema': SCHEMA, 'kind': 'programs', 'programs': old.get('programs', []),
            'mechanisms': old.get('mechanisms', []), 'n/a': old.get('n/a', {}),
            'calls': calls, 'runs': runs}


def load_profile(results_dir):
    """The profile's result: latest-profile.json, or, for a run archived
    before it existed (schema 1), latest-profile.csv converted; None if
    neither is there."""
    js = load(os.path.join(results_dir, 'latest-profile.json'), 'profile')
    if js is not None:
        return js
    try:
        f = open(os.path.join(results_dir, 'latest-profile.csv'))
    except OSError:
        return None
    out = {'schema': SCHEMA, 'kind': 'profile', 'counts': {}, 'path': {}}
    with f:
        for r in csv.DictReader(f):
            try:
                float(r['value'])
            except ValueError:
                continue        # a figure the run did not have
            if r['run'] == 'counts' and r['kind'] == 'count':
                out['counts'].setdefault(r['mech'], {}).setdefault(r['op'], {})[
                    r['key']] = float(r['value'])
            elif r['run'] == 'path' and r['kind'] in ('path', 'bucket'):
                cell = out['path'].setdefault(r['mech'], {}).setdefault(r['op'], {})
                if r['kind'] == 'path' and r['key'] == 'total':
                    cell['insns_per_op'] = float(r['value'])
                elif r['kind'] == 'bucket':
                    cell.setdefault('buckets_insns', {})[r['key']] = float(r['value'])
    return out


UPGRADE_1 = {'bench': _bench_1, 'programs': _programs_1}


def median(js, run, mech, op):
    """A bench result's median for (mech, op) in run, in the run's unit."""
    r = (js or {}).get('runs', {}).get(run)
    if not r:
        return None
    v = r['per_op'].get(mech, {}).get(op)
    return v[f'median_{r["unit"]}'] if v else None


def above_floor(js, run, mech, op):
    r = (js or {}).get('runs', {}).get(run)
    if not r:
        return None
    return r.get(f'above_floor_{r["unit"]}', {}).get(mech, {}).get(op)
