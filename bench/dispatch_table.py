"""bench/dispatch_table.py [--all] [--plan-time] [--limit N] RESULTS...

Reads the files of bench/dispatch_sweep.sh (or dispatch_plan_time.sh): SWEEP
header lines, then "RESULT CONFIG problem plan_ms median_ms min_ms reps
where inner" (CONFIG fftw: the real FFTW alone; gpu: gpufftw with
GPUFFTW_MODE=gpu; auto: gpufftw's own choice), CRASH, MISSING and TIME lines.
Files of runs of separate configurations join: a point is keyed by its flags
(from the SWEEP line above it) and its problem; a later line for the same
flags, configuration and problem replaces an earlier one. Passes
(dispatch_sweep.sh's GPUFFTW_SWEEP_PASSES: SWEEP lines with pass=N) are
summarised each apart ("FLAGS pass N") and then together ("FLAGS, the
lesser of passes 1-N"): each configuration's time of a point the least of
its passes' medians (and minima), its plan time, side and why those of
its first pass, so that a slow spell of the host in one pass, which slows
whatever it falls on, counts against no configuration.

Default: per flags setting, the summary of the dispatch targets: ratio =
time(auto) / min(time(fftw), time(gpu)) on medians, the share of points
within 1.10x, the worst point, the points over 1.10x (the worst --limit, 40
by default) with the three times and where auto and gpu ran, and auto's
planning times (the target under FFTW_ESTIMATE is <= 5 ms a plan after
calibration: the first plan of the process and its first GPU plan, which
start CUDA and whatever gpufftw calibrates, are shown apart).
--all: every point, one row each (markdown).
--plan-time: per problem, the plan time of fftw and auto and their ratio
(the FFTW_MEASURE planning target: auto <= fftw).
Python 3 standard library only."""
import math
import re
import sys

CONFIGS = ("fftw", "gpu", "auto")
EXTRA = ("fftw1", "fftw2")  # for information: FFTW on one thread; FFTW run again
calib = {}  # flags -> [(problem, plan ms, where)] of the calibration step
warm = {}  # flags -> the warm step's line (dispatch_sweep.sh, GPUFFTW_SWEEP_WARM=1)


def parse(paths):
    data = {}  # flags -> problem -> config -> record
    order = {}  # flags -> [problem] in first-seen order
    headers = {}  # flags -> config -> header dict
    status = {}  # flags -> problem -> config -> "CRASH ..." / "MISSING ..."
    times = {}  # flags -> config -> seconds
    seq = {}  # (flags, config) -> running index of RESULT lines, for "first plan"
    for path in paths:
        flags = "?"
        for line in open(path):
            line, _, why = line.partition(" | ")
            why = why.strip()
            f = line.split()
            if not f:
                continue
            if f[0] == "SWEEP":
                h = dict(kv.split("=", 1) for kv in f[1:] if "=" in kv)
                flags = h.get("flags", "?") + (f" pass {h['pass']}" if "pass" in h else "")
                headers.setdefault(flags, {})[h.get("config", "?")] = h
                seq[(flags, h.get("config", "?"))] = 0
            elif f[0] == "RESULT" and len(f) >= 4 and f[1] in CONFIGS + EXTRA:
                config, prob = f[1], f[2]
                data.setdefault(flags, {})
                if prob not in order.setdefault(flags, []):
                    order[flags].append(prob)
                if f[3] == "NULL-plan":
                    status.setdefault(flags, {}).setdefault(prob, {})[config] = "NULL-plan"
                    continue
                if len(f) < 7:
                    continue
                k = seq.get((flags, config), 0)
                seq[(flags, config)] = k + 1
                data[flags].setdefault(prob, {})[config] = {
                    "plan": float(f[3]), "med": float(f[4]), "min": float(f[5]), "reps": int(f[6]),
                    "where": f[7] if len(f) > 7 else "?", "inner": int(f[8]) if len(f) > 8 else 1, "seq": k,
                    "why": why}
            elif f[0] in ("CRASH", "MISSING") and len(f) >= 3:
                status.setdefault(flags, {}).setdefault(f[2], {})[f[1]] = " ".join([f[0]] + f[3:])
                data.setdefault(flags, {})
                if f[2] not in order.setdefault(flags, []):
                    order[flags].append(f[2])
            elif f[0] == "CALIBRATE" and len(f) >= 4:
                calib.setdefault(flags, []).append((f[1], f[2], f[6] if len(f) > 6 else "?"))
            elif f[0] == "WARM":
                warm[flags] = " ".join(f[1:])
            elif f[0] == "TIME" and len(f) >= 3:
                times.setdefault(flags, {})[f[1]] = float(f[2])
    return data, order, headers, status, times


def join_passes(data, order, headers, status, times):
    """Adds "FLAGS, the lesser of passes 1-N" for flags run in several passes."""
    passes = {}  # base flags -> [(pass number, flags of that pass)]
    for flags in list(data):
        m = re.fullmatch(r"(.*) pass (\d+)", flags)
        if m:
            passes.setdefault(m.group(1), []).append((int(m.group(2)), flags))
    for base, numbered in passes.items():
        if len(numbered) < 2:
            continue
        numbered.sort()
        keys = [k for _, k in numbered]
        joint = f"{base}, the lesser of passes {numbered[0][0]}-{numbered[-1][0]}"
        data[joint], order[joint] = {}, []
        headers[joint], times[joint] = headers.get(keys[0], {}), times.get(keys[0], {})
        for k in keys:
            for prob in order.get(k, []):
                if prob not in order[joint]:
                    order[joint].append(prob)
                for config, rec in data[k].get(prob, {}).items():
                    have = data[joint].setdefault(prob, {}).get(config)
                    if have is None:
                        data[joint][prob][config] = dict(rec)
                        continue
                    have["med"], have["min"] = min(have["med"], rec["med"]), min(have["min"], rec["min"])
                    have["reps"] += rec["reps"]
                    if rec["where"] != have["where"]:
                        have["why"] += f" [{k}: on the {rec['where']}]"
        for k in keys:
            for prob, bad in status.get(k, {}).items():
                if not all(c in data[joint].get(prob, {}) for c in CONFIGS):
                    status.setdefault(joint, {}).setdefault(prob, {}).update(bad)


def ms(x):
    """A time given in ms, with its unit: 3 significant digits or so."""
    if x is None:
        return "-"
    if x >= 100:
        return f"{x:.0f} ms"
    if x >= 1:
        return f"{x:.2f} ms"
    if x >= 0.1:
        return f"{x:.3f} ms"
    if x >= 0.001:
        return f"{x * 1e3:.1f} us"
    return f"{x * 1e3:.3f} us"


def short(text, width=70):
    text = text.replace("|", "/")
    return text if len(text) <= width else text[: width - 3] + "..."


def pct(values, q):
    v = sorted(values)
    if not v:
        return float("nan")
    return v[min(len(v) - 1, max(0, math.ceil(q * len(v)) - 1))]


def joined(data, order, flags, key="med"):
    """[(problem, ratio, rec_fftw, rec_gpu, rec_auto)] for points with all three."""
    rows = []
    for prob in order.get(flags, []):
        r = data[flags].get(prob, {})
        if all(c in r for c in CONFIGS):
            best = min(r["fftw"][key], r["gpu"][key])
            ratio = r["auto"][key] / best if best > 0 else float("inf")
            rows.append((prob, ratio, r["fftw"], r["gpu"], r["auto"]))
    return rows


def verdict(a, b, c):
    """Where the faster peer ran, and whether auto took the other side."""
    faster = "fftw" if a["med"] <= b["med"] else "gpu"
    faster_side = "cpu" if faster == "fftw" or b["where"] == "cpu" else "gpu"
    auto_side = c["where"]
    if auto_side != faster_side:
        return faster, "wrong side"
    return faster, "same side, slower"


def describe_header(flags, headers, times):
    h = headers.get(flags, {})
    any_h = h.get("fftw") or h.get("auto") or next(iter(h.values()), {})
    parts = [f"flags {flags}"]
    for k in ("gpu", "host", "rev", "threads", "seconds", "timelimit", "date"):
        if k in any_h:
            parts.append(f"{k} {any_h[k]}")
    t = times.get(flags, {})
    if t:
        parts.append("wall s " + ", ".join(f"{c} {t[c]:.0f}" for c in ("calibrate",) + CONFIGS + EXTRA if c in t))
    return "; ".join(parts)


def summary(flags, data, order, headers, status, times, limit):
    print(f"## dispatch sweep: {describe_header(flags, headers, times)}\n")
    rows = joined(data, order, flags)
    probs = order.get(flags, [])
    incomplete = [p for p in probs if not all(c in data[flags].get(p, {}) for c in CONFIGS)]
    n = len(rows)
    if not n:
        print("no point has all three configurations")
    else:
        within = sum(1 for r in rows if r[1] <= 1.10)
        over15 = [r for r in rows if r[1] > 1.5]
        worst = max(rows, key=lambda r: r[1])
        gmean = math.exp(sum(math.log(r[1]) for r in rows) / n)
        print(f"- points: {n} with all three configurations" + (f"; {len(incomplete)} incomplete" if incomplete else ""))
        print(f"- within 1.10x of the faster of (fftw, gpu): {within} of {n} = {100.0 * within / n:.1f}%"
              f" (target >= 95%); over 1.5x: {len(over15)} (target 0)")
        print(f"- worst: {worst[1]:.2f}x at {worst[0]} (auto {ms(worst[4]['med'])} on {worst[4]['where']},"
              f" fftw {ms(worst[2]['med'])}, gpu {ms(worst[3]['med'])} on {worst[3]['where']})")
        print(f"- geometric mean of the ratio: {gmean:.3f}; median {pct([r[1] for r in rows], 0.5):.3f}")
        mrows = joined(data, order, flags, "min")
        mw = sum(1 for r in mrows if r[1] <= 1.10)
        mworst = max(mrows, key=lambda r: r[1])
        print(f"- on minimum times instead of medians: {mw} of {len(mrows)} = {100.0 * mw / len(mrows):.1f}% within 1.10x,"
              f" worst {mworst[1]:.2f}x at {mworst[0]}")
        sides = {"cpu": 0, "gpu": 0}
        for r in rows:
            sides[r[4]["where"]] = sides.get(r[4]["where"], 0) + 1
        fast = {"fftw": 0, "gpu": 0}
        for r in rows:
            fast[verdict(r[2], r[3], r[4])[0]] += 1
        gcpu = sum(1 for r in rows if r[3]["where"] == "cpu")
        print(f"- auto ran: " + ", ".join(f"{k} {v}" for k, v in sides.items() if v)
              + f"; faster peer: fftw {fast['fftw']}, gpu {fast['gpu']}"
              + (f" (gpu config fell back to the CPU on {gcpu})" if gcpu else ""))
        passing = [r[0] for r in rows if "kept for this process only" in r[4]["why"]]
        if passing:  # FFTW_MEASURE's choices lost_in_a_spell kept out of the store
            print(f"- auto's choices kept for their process only (the losing side read over 1.5x its price):"
                  f" {len(passing)}: {' '.join(passing[:12])}" + (" ..." if len(passing) > 12 else ""))
        over = sorted((r for r in rows if r[1] > 1.10), key=lambda r: -r[1])
        wrong = sum(1 for r in over if verdict(r[2], r[3], r[4])[1] == "wrong side")
        print(f"- over 1.10x: {len(over)} ({wrong} on the wrong side, {len(over) - wrong} on the faster side but slower)")
        if over:
            print(f"\n| problem | ratio | auto (where) | fftw | gpu (where) | faster | note | auto's why |")
            print("|---|---|---|---|---|---|---|---|")
            for prob, ratio, a, b, c in over[:limit]:
                faster, note = verdict(a, b, c)
                print(f"| {prob} | {ratio:.2f} | {ms(c['med'])} ({c['where']}) | {ms(a['med'])} | {ms(b['med'])} ({b['where']})"
                      f" | {faster} | {note} | {short(c['why'])} |")
            if len(over) > limit:
                print(f"\n({len(over) - limit} more over 1.10x: --all lists every point)")
        one = [(r[0], data[flags][r[0]]["fftw1"]["med"], r) for r in rows if "fftw1" in data[flags][r[0]]]
        if one:
            beat = sorted(((p, t, r) for p, t, r in one if t * 1.10 < r[4]["med"]), key=lambda x: x[1] / x[2][4]["med"])
            print(f"\n- fftw1 (the real FFTW on one thread, for information): faster than auto by over 1.10x on"
                  f" {len(beat)} of {len(one)} points" + (", e.g. " if beat else "")
                  + ", ".join(f"{p} {ms(t)} vs auto {ms(r[4]['med'])}" for p, t, r in beat[:8]))
        two = [(data[flags][r[0]]["fftw2"]["med"] / r[2]["med"], r[0]) for r in rows if "fftw2" in data[flags][r[0]]]
        if two:
            spread = [max(q, 1 / q) for q, _ in two]
            w = max(zip(spread, (p for _, p in two)))
            print(f"- fftw2 (the real FFTW run again, the noise floor): the two fftw runs within 1.10x of each other on"
                  f" {sum(1 for x in spread if x <= 1.10)} of {len(two)} points"
                  f" = {100.0 * sum(1 for x in spread if x <= 1.10) / len(two):.1f}%; widest {w[0]:.2f}x at {w[1]}")
    bad = status.get(flags, {})
    if bad:
        print("\nnot timed:")
        for prob in probs:
            if prob in bad:
                print(f"- {prob}: " + ", ".join(f"{c} {bad[prob][c]}" for c in CONFIGS if c in bad[prob]))
    elif incomplete:
        print(f"\nincomplete (a configuration has no line): {' '.join(incomplete[:20])}"
              + (" ..." if len(incomplete) > 20 else ""))
    plan_summary(flags, data, order)


def plan_summary(flags, data, order):
    recs = [(p, data[flags][p]["auto"]) for p in order.get(flags, []) if "auto" in data[flags].get(p, {})]
    if not recs:
        return
    plans = [r["plan"] for _, r in recs]
    first = min(recs, key=lambda pr: pr[1]["seq"])
    gpus = [pr for pr in recs if pr[1]["where"] == "gpu"]
    first_gpu = min(gpus, key=lambda pr: pr[1]["seq"]) if gpus else None
    start = {first[0]} | ({first_gpu[0]} if first_gpu else set())
    after = [(p, r) for p, r in recs if p not in start]
    # An interleaved run's flags read "FLAGS/interleaved" (then " pass N"
    # in a run of passes); the steps before it, and the real FFTW alone
    # (config fftw, its own process), "FLAGS".
    root = re.sub(r"( pass \d+|, the lesser of passes .*)$", "", flags)
    base = root.split("/")[0]
    alone = data.get(base, {}) if "/" in root else data.get(flags, {})
    if base in warm:
        print(f"\nwarm step (its own process, GPUFFTW_MODE=gpu, first): {warm[base]}")
    if calib.get(base):
        print("\ncalibration step (three processes of their own, before auto's: calibration, then two checks): "
              + ", ".join(f"{p} {float(t):.1f} ms ({w})" for p, t, w in calib[base]))
    print(f"\nauto's planning time, ms ({len(recs)} plans): median {pct(plans, 0.5):.2f}, p90 {pct(plans, 0.9):.2f},"
          f" max {max(plans):.1f} ({max(recs, key=lambda pr: pr[1]['plan'])[0]})")
    print(f"- first plan of the process: {first[1]['plan']:.1f} ({first[0]}, {first[1]['where']})"
          + (f"; first on the GPU: {first_gpu[1]['plan']:.1f} ({first_gpu[0]})" if first_gpu else "; none on the GPU"))
    if after:
        amax = max(after, key=lambda pr: pr[1]["plan"])
        over5 = sorted((pr for pr in after if pr[1]["plan"] > 5.0), key=lambda pr: -pr[1]["plan"])
        print(f"- after those: max {amax[1]['plan']:.1f} ({amax[0]}), over 5 ms: {len(over5)}"
              + (" (the ESTIMATE target is 0)" if base == "estimate" else ""))
        if over5:
            def fftw_plan(p):  # the real FFTW alone's plan time for the point, where run
                f = alone.get(p, {}).get("fftw")
                return f"; fftw alone {f['plan']:.1f}" if f else ""
            print("  " + ", ".join(f"{p} {r['plan']:.1f} ({r['where']}{fftw_plan(p)})" for p, r in over5[:15])
                  + (" ..." if len(over5) > 15 else ""))
            print(f"  on the GPU {sum(1 for _, r in over5 if r['where'] == 'gpu')},"
                  f" on the CPU {sum(1 for _, r in over5 if r['where'] == 'cpu')}")
            timed = [(p, r) for p, r in over5 if "fftw" in alone.get(p, {})]
            if timed:
                slower = [p for p, r in timed if alone[p]["fftw"]["plan"] <= 5.0]
                print(f"  of the {len(timed)} the real FFTW alone also planned, it took 5 ms or less on {len(slower)}")
    fplans = [alone[p]["fftw"]["plan"] for p in order.get(flags, []) if "fftw" in alone.get(p, {})]
    if fplans:
        print(f"- for reference, the real FFTW alone: median {pct(fplans, 0.5):.2f}, max {max(fplans):.1f},"
              f" total {sum(fplans) / 1e3:.1f} s; auto total {sum(plans) / 1e3:.1f} s")


def all_points(flags, data, order, status):
    print(f"## every point, flags {flags} (times: median per execute; ratio = auto / min(fftw, gpu))\n")
    one = any("fftw1" in r for r in data[flags].values())
    print("| problem | fftw | gpu (where) | auto (where) | ratio | ratio on min | plan ms fftw / gpu / auto | reps fftw / gpu / auto |"
          + (" fftw1 |" if one else ""))
    print("|---|---|---|---|---|---|---|---|" + ("---|" if one else ""))
    for prob in order.get(flags, []):
        r = data[flags].get(prob, {})
        a, b, c = (r.get(k) for k in CONFIGS)
        ratio = rmin = "-"
        if a and b and c:
            ratio = f"{c['med'] / min(a['med'], b['med']):.2f}"
            rmin = f"{c['min'] / min(a['min'], b['min']):.2f}"
        def cell(config, w=True):
            x = r.get(config)
            if not x:
                return status.get(flags, {}).get(prob, {}).get(config, "-")
            return ms(x["med"]) + (f" ({x['where']})" if w else "")
        plan = " / ".join(f"{x['plan']:.1f}" if x else "-" for x in (a, b, c))
        reps = " / ".join(f"{x['reps']}x{x['inner']}" if x else "-" for x in (a, b, c))
        print(f"| {prob} | {cell('fftw', False)} | {cell('gpu')} | {cell('auto')} | {ratio} | {rmin} | {plan} | {reps} |"
              + (f" {cell('fftw1', False)} |" if one else ""))


def plan_time(flags, data, order, headers, times):
    print(f"## planning time: {describe_header(flags, headers, times)}\n")
    print("| problem | fftw plan ms | auto plan ms (where) | auto / fftw | fftw execute | auto execute | auto's why |")
    print("|---|---|---|---|---|---|---|")
    worst, n, ok = None, 0, 0
    for prob in order.get(flags, []):
        r = data[flags].get(prob, {})
        a, c = r.get("fftw"), r.get("auto")
        if a and c:
            q = c["plan"] / a["plan"] if a["plan"] > 0 else float("inf")
            n += 1
            ok += q <= 1.0
            worst = max(worst or (q, prob), (q, prob))
            print(f"| {prob} | {a['plan']:.1f} | {c['plan']:.1f} ({c['where']}) | {q:.3f} | {ms(a['med'])} | {ms(c['med'])}"
                  f" | {short(c['why'])} |")
        else:
            print(f"| {prob} | {a['plan'] if a else '-'} | {c['plan'] if c else '-'} | - | - | - | - |")
    if n:
        print(f"\n- auto's plan time <= the real FFTW's: {ok} of {n}; worst auto / fftw {worst[0]:.3f} ({worst[1]})")


def main(argv):
    mode, limit, paths = "summary", 40, []
    i = 0
    while i < len(argv):
        if argv[i] == "--all":
            mode = "all"
        elif argv[i] == "--plan-time":
            mode = "plan"
        elif argv[i] == "--limit":
            i += 1
            limit = int(argv[i])
        else:
            paths.append(argv[i])
        i += 1
    if not paths:
        print(__doc__, file=sys.stderr)
        return 2
    data, order, headers, status, times = parse(paths)
    join_passes(data, order, headers, status, times)
    for flags in data:
        if mode == "all":
            all_points(flags, data, order, status)
        elif mode == "plan":
            plan_time(flags, data, order, headers, times)
        else:
            summary(flags, data, order, headers, status, times, limit)
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
