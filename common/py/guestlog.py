"""The one reader of what a guest boot printed on its TAP port (ttyS1).

Two kinds of line matter there, everything else is ignored:
- records (common/workload/record.h): one JSON object per line, starting
  with {"type": ...}; a boot's first record is its "run", which names the
  tool and the schema the records follow;
- TAP results: "ok N desc", "not ok N desc # SKIP reason", indented by four
  spaces for a program's own results under the runner's "# running PROG".

Every generator (bench/report.py, programs_report.py, profile_report.py,
decision_report.py) and the verdict (common/qemu/tap_summary.py) read
through here.
"""
import collections
import json
import re

# The record schema this reader understands (WL_REC_SCHEMA in record.h).
REC_SCHEMA = 1

# A TAP result.  A directive is a word after '#' (SKIP, TODO); any other
# comment after '#' stays with the result, which still counts.
RESULT = re.compile(r'^(\s*)(not ok|ok)\b\s*(\d+)?\s*-?\s*([^#]*)(#\s*(\S*)(.*))?$')
RUNNING = re.compile(r'^# running (\S+)')


class LogError(Exception):
    """A log this reader cannot read as what it claims to be."""


def read_lines(path):
    """The log's lines, carriage returns dropped (a serial port adds them)."""
    with open(path, errors='replace') as f:
        return f.read().replace('\r', '').splitlines()


def records(lines):
    """The records among the lines, in order, each a dict with 'type'.  A
    line that starts as a record but does not parse (cut short by a crash,
    or by a kernel message on the same port) becomes a record of type
    "unreadable", so that a reader can say so rather than lose it."""
    out = []
    for line in lines:
        if not line.startswith('{"type":'):
            continue
        try:
            rec = json.loads(line)
        except ValueError:
            out.append({'type': 'unreadable', 'line': line[:120]})
            continue
        if rec.get('type') == 'run' and rec.get('schema') != REC_SCHEMA:
            raise LogError(f'records of schema {rec.get("schema")}, '
                           f'this reader knows {REC_SCHEMA}')
        out.append(rec)
    return out


Boot = collections.namedtuple('Boot', 'run mechs skips notes by_type')


def read_boot(path, tool=None):
    """One boot's records: its run record, its mechanisms (in the order the
    guest listed them), why some did not run {mech: reason} (whole
    mechanisms only), its notes (the skips of single ops included, as text),
    and every record by type."""
    recs = records(read_lines(path))
    run = next((r for r in recs if r['type'] == 'run'), None)
    if run is None:
        raise LogError(f'{path}: no run record (did the guest program start?)')
    if tool and run.get('tool') != tool:
        raise LogError(f'{path}: a {run.get("tool")} boot, not a {tool} boot')
    by_type = collections.defaultdict(list)
    for r in recs:
        by_type[r['type']].append(r)
    mechs, seen = [], set()
    for r in by_type['mech']:
        if r['name'] not in seen:
            seen.add(r['name'])
            mechs.append(r)
    skips, notes = {}, []
    if by_type['unreadable']:
        notes.append(f'{len(by_type["unreadable"])} record line(s) of this boot did not '
                     f'parse, the first: {by_type["unreadable"][0]["line"]}')
    for r in recs:
        if r['type'] == 'note':
            notes.append(f'{r["tool"]}: {r["text"]}')
        elif r['type'] == 'skip':
            notes.append(skip_text(r))
            if not r.get('op'):
                skips[r['mech']] = r
    return Boot(run, mechs, skips, notes, by_type)


def skip_text(r):
    """A skip record as one line, as the report's notes list it."""
    what = r['mech'] + (f' {r["op"]}' if r.get('op') else '')
    kind = {'missing': 'skipped', 'n/a': 'n/a', 'failed': 'failed'}.get(r['kind'], r['kind'])
    return f'{r["tool"]}: {what} {kind}: {r["reason"]}'


def unit(boot):
    """'ns' or 'insns' (an -icount boot), from the run record."""
    return boot.run.get('unit', 'ns')


# ---------------------------------------------------------------- TAP

def tap_results(lines):
    """(indent, ok, number, description, directive, reason) per result."""
    for line in lines:
        m = RESULT.match(line)
        if m:
            indent, status, num, desc, _, directive, reason = m.groups()
            yield indent, status == 'ok', num, desc.strip(), directive, (reason or '').strip()


def tap_programs(path):
    """{program: {'status': ok|FAILED|not run, 'results': [(status, desc)]}}
    where a result's status is ok, FAILED or skipped; None without a log."""
    try:
        lines = read_lines(path)
    except OSError:
        return None
    progs, cur = {}, None
    for line in lines:
        m = RUNNING.match(line)
        if m:
            cur = progs.setdefault(m.group(1), {'status': 'not run', 'results': []})
            continue
        m = RESULT.match(line)
        if not m:
            continue
        indent, status, _, desc, comment, directive, _ = m.groups()
        if indent == '    ' and cur is not None:
            full = desc + (comment or '')
            st = 'skipped' if (directive or '').upper() == 'SKIP' else (
                'ok' if status == 'ok' else 'FAILED')
            cur['results'].append((st, full.strip()))
        elif not indent:
            name = desc.strip()
            if name in progs:
                progs[name]['status'] = 'ok' if status == 'ok' else 'FAILED'
    return progs
