"""Checks of the 2D slider studies (sections 3.1-3.3 of the LuGre/mortar paper) on shortened horizons.

usage: check_slider2d.py elastic PROGRAM RIGID_INPUT ELASTIC_INPUT
           the elastic spring-slider (inputs/slider2d/springslider-elastic.xml) made stiffer, E = 1e7 and 1e8 Pa, over
           the first stick and slip (2.6 s), against the rigid spring-slider (springslider-rigid.xml): mass-centre
           displacement and global friction force; energy balance of each run
       check_slider2d.py energy PROGRAM INPUT:END...
           each input run to END seconds: the energy balance (with the contact work column) closes to 1e-3
       check_slider2d.py velocity PROGRAM INPUT
           the velocity-controlled slider (slider-velocity-h*.xml): stick-slip of the contact layer, COF about mu_k
       check_slider2d.py iga PROGRAM INPUT
           the velocity-controlled slider as a NURBS patch (iga-slider-velocity-h*.xml): steady sliding against the
           closed form mu(V), then 3 s of stick-slip with the global COF about mu_k
       check_slider2d.py cyclic PROGRAM INPUT
           the slider under a cyclic force below break-away (slider-cyclic.xml): pre-sliding only, larger near the
           loaded edge, and no drift after the force is removed"""
import os
import re
import sys
import tempfile

import numpy as np

from postproc import contact_energy, slider2d
from postproc.results import Results
from tests.common.figdata import captured_figures, shows
from tests.common.runs import stickslip_run


def run_text(prog, text, name, tmp, *options):
    """Writes TEXT to TMP/NAME.xml, runs it into TMP/NAME and returns its Results."""
    path = os.path.join(tmp, name + ".xml")
    with open(path, "w") as f:
        f.write(text)
    stickslip_run(prog, path, os.path.join(tmp, name), "-quiet", *options)
    return Results(os.path.join(tmp, name, "results.h5"))


def set_attr(text, element, attr, value):
    """TEXT with attribute ATTR of the first <ELEMENT ...> set to VALUE (the element must have it)."""
    pat = re.compile(r"(<%s\b[^>]*\b%s=\")[^\"]*(\")" % (element, attr))
    new, n = pat.subn(lambda m: m.group(1) + value + m.group(2), text, count=1)
    if n != 1:
        sys.exit("FAIL: no %s=... on <%s> in the input" % (attr, element))
    return new


def figures(make, tmp, names):
    """Runs the figure script MAKE(figdir) of postproc.slider2d on a run; returns what each of the figures NAMES shows
    (tests.common.figdata), failing if one was not drawn."""
    shown = captured_figures()
    figdir = os.path.join(tmp, "figures")
    make(figdir)
    missing = [n for n in names if n not in shown or not os.path.isfile(os.path.join(figdir, n))]
    if missing:
        sys.exit("FAIL: postproc.slider2d did not draw " + ", ".join(missing))
    return shown


def energy_drift(r):
    """Largest drift of the energy balance over the run, relative to the largest external work (the spring driver's)."""
    e = r.history("/explicit/energy")
    bal, wext = np.asarray(e["balance"]), np.asarray(e["external_work"])
    return np.max(np.abs(bal - bal[0])) / np.max(np.abs(wext))


def elastic(prog, rigid_input, elastic_input):
    with open(elastic_input) as f:
        base = f.read()
    fails = []
    with tempfile.TemporaryDirectory() as tmp:
        with open(rigid_input) as f:
            rig = run_text(prog, f.read(), "rigid", tmp)
        c = rig.history("/springslider/centre")
        tr, xr, fr = (np.asarray(c[k]) for k in ("t", "x_mean", "friction_total"))
        errors = []
        for E in (1e7, 1e8):
            # the top layer is lowered to its static position under the weight: penetration rho g H / eps_N plus the
            # plane-strain self-weight shortening (1 - nu^2) rho g H^2 / (2 E), rho = 1, H = 1, nu = 0.25, eps_N = 1e6
            top = -(9.81 / 1e6 + (1 - 0.25**2) * 9.81 / (2 * E))
            text, n = re.subn(r'(<displacement nodeset="top" component="y">\s*<function[^>]*value=")[^"]*',
                              lambda m: m.group(1) + "%.7g" % top, set_attr(base, "block", "E", "%g" % E))
            if n != 1:
                sys.exit("FAIL: no prescribed displacement of the top layer in " + elastic_input)
            text = set_attr(text, "time", "end", "2.6")
            text = set_attr(text, "output", "fields", "0")
            r = run_text(prog, text, "elastic_E%g" % E, tmp)
            s, f = r.history("/explicit/set/all"), r.history("/explicit/contact/floor")
            t, x, fx = np.asarray(s["time"]), np.asarray(s["mean_u_x"]), -np.asarray(f["friction_x"])
            xi, fi = np.interp(t, tr, xr), np.interp(t, tr, fr)
            ex = np.max(np.abs(x - xi)) / np.max(np.abs(xi))
            ef = np.trapz(np.abs(fx - fi), t) / np.trapz(np.abs(fi), t)
            drift = energy_drift(r)
            errors.append((E, ex, ef))
            print("E = %g Pa: mass-centre displacement off the rigid one by %.3g of its maximum (%.4g m), global friction force by "
                  "%.3g (L1 over 0-2.6 s), energy balance drift %.3g of the driver's work" % (E, ex, np.max(np.abs(xi)), ef, drift))
            # energy balance with the contact work column (friction dissipation, bristle and penalty energy): the acceptance
            # bound 1e-3 (measured 2.4e-8 at E = 1e7 and 9.7e-10 at 1e8)
            if drift > 1e-3:
                fails.append("E = %g: energy balance drift %.3g > 1e-3" % (E, drift))
    (E1, ex1, ef1), (E2, ex2, ef2) = errors
    # the difference is the body's compliance, so it falls like 1/E: measured 6.2e-2 -> 6.8e-3 (displacement) and
    # 8.3e-3 -> 1.6e-3 (friction) from E = 1e7 to 1e8. Required: at E = 1e8 below 1e-2 (displacement) and 3e-3
    # (friction), and at least a factor 3 smaller than at E = 1e7 (the slip onset, sampled every 1 ms, limits the
    # friction error's decrease)
    if not (ex2 < 1e-2 and ex2 < ex1 / 3):
        fails.append("displacement error %.3g at E = 1e8 (%.3g at 1e7): expected < 1e-2 and < 1/3 of the E = 1e7 one" % (ex2, ex1))
    if not (ef2 < 3e-3 and ef2 < ef1 / 3):
        fails.append("friction force error %.3g at E = 1e8 (%.3g at 1e7): expected < 3e-3 and < 1/3 of the E = 1e7 one" % (ef2, ef1))
    if fails:
        sys.exit("FAIL: " + "; ".join(fails))


def energy(prog, items):
    fails = []
    with tempfile.TemporaryDirectory() as tmp:
        for item in items:
            inp, end = item.rsplit(":", 1)
            with open(inp) as f:
                text = set_attr(f.read(), "time", "end", end)
            text = re.sub(r'fields="\d+"', 'fields="0"', text)
            name = os.path.splitext(os.path.basename(inp))[0]
            r = run_text(prog, text, name, tmp)
            drift = energy_drift(r)
            diss = np.asarray(r.history("/explicit/contact/floor")["dissipation"])[-1]
            wext = np.asarray(r.history("/explicit/energy")["external_work"])[-1]
            print("%s to %s s: energy balance drift %.3g of the external work (%.4g J), frictional dissipation %.4g J"
                  % (name, end, drift, wext, diss))
            # the acceptance bound, docs/design.md for the slider studies (measured 2.4e-8 and 5.4e-8 for the velocity-controlled and the
            # cyclic slider, 1.8e-5 for the E = 1 MPa spring-slider whose contact chatters after the first slip)
            if drift > 1e-3:
                fails.append("%s: energy balance drift %.3g > 1e-3" % (name, drift))
            # the friction dissipates: its accumulated dissipation is positive and a sizeable part of the work put in
            if not diss > 0:
                fails.append("%s: frictional dissipation %.3g J is not positive" % (name, diss))
            if 'velocity nodeset="top" component="x"' in text:
                fails += steady_sliding(prog, text, tmp)
    if fails:
        sys.exit("FAIL: " + "; ".join(fails))


def steady_sliding(prog, text, tmp):
    """The friction dissipation against the closed form of steady sliding, independently of the energy balance (which
    holds for any friction force, as each term's work is the integrator's own sum of the force it applied): the
    velocity-controlled slider TEXT with every node, not only the top layer, driven at V = 0.01 m/s, to 1 s. Once the
    drive has started (0.1 s) and the bristles have settled (rate sigma0 V / G = 3e3 1/s), every contact node slides at
    V with z' = 0, so the friction is mu(V) N, mu(V) = G(V) + sigma2 V = mu_k + (mu_s - mu_k) exp(-(V / v_s)^theta) +
    sigma2 V (docs/theory.md, eqs. 20-22; parameters read from the input), and the dissipation grows by
    mu(V) V int N dt. Over 0.2-1 s: friction over normal force equals mu(V) to 1e-12 (round-off; measured 4e-15), and the
    dissipation increment the closed form with int N dt from the sampled normal force to 1e-4 (the trapezoid of N sampled
    every 100 steps, which varies by 2.5 %; measured 1.1e-5). sigma2 V is 1.3 % of mu(V), so a 10 % error in sigma2
    fails both. Mutation tried: the contact's dissipation increment (src/contact/contact_pair.c) 1 % too large: fails
    (1e-2 > 1e-4); reverted."""
    f = re.search(r"<friction[^>]*>", text).group(0)
    par = {k: float(re.search(r'\b%s="([^"]*)"' % k, f).group(1)) for k in ("mu_s", "mu_k", "v_s", "theta", "sigma2")}
    V = 0.01
    mu = par["mu_k"] + (par["mu_s"] - par["mu_k"]) * np.exp(-((V / par["v_s"]) ** par["theta"])) + par["sigma2"] * V
    text = text.replace('velocity nodeset="top" component="x"', 'velocity nodeset="all" component="x"')
    text = set_attr(text, "time", "end", "1")
    r = run_text(prog, text, "steady", tmp)
    c = r.history("/explicit/contact/floor")
    t, N, fx, D = (np.asarray(c[k]) for k in ("time", "normal_force", "friction_x", "dissipation"))
    m = t >= 0.2
    ecof = np.max(np.abs(-fx[m] / N[m] - mu)) / mu
    pred = mu * V * np.trapz(N[m], t[m])
    ediss = abs((D[m][-1] - D[m][0]) - pred) / pred
    print("steady sliding at V = %g m/s: friction / N off mu(V) = %.6f by %.2g; dissipation %.6g J vs mu(V) V int N dt = %.6g J, "
          "off by %.2g" % (V, mu, ecof, D[m][-1] - D[m][0], pred, ediss))
    fails = []
    if ecof > 1e-12:
        fails.append("steady sliding: friction / N off mu(V) by %.3g > 1e-12" % ecof)
    if ediss > 1e-4:
        fails.append("steady sliding: dissipation off mu(V) V int N dt by %.3g > 1e-4" % ediss)
    return fails


def velocity(prog, inp):
    with open(inp) as f:
        text = re.sub(r'fields="\d+"', 'fields="0"', f.read())
    with tempfile.TemporaryDirectory() as tmp:
        r = run_text(prog, text, "velocity", tmp)
        w, c = r.history("/explicit/watch/mid"), r.history("/explicit/contact/floor")
        t, v, cof = np.asarray(w["time"]), np.asarray(w["v_x"]), np.asarray(c["cof"])
        ratio = r.attrs("/explicit/contact_nodes/floor")["sticking_time_ratio"]
        g = "/explicit/contact_nodes/floor/"
        nodal = r.array(g + "sticking_time_ratio")[r.array(g + "weight") > 0]
        shown = figures(lambda d: slider2d.velocity(d, [os.path.join(tmp, "velocity")]), tmp,
                        ("fig10-midpoint.png", "fig10-sticking.png", "fig14-cof.png"))
    V, vs, m = 0.01, 1e-3, t > 1
    stick, fast, mean_cof = np.mean(np.abs(v[m]) < vs), np.mean(v[m] > 2 * V), np.mean(cof[m])
    print("midpoint: sticking %.3f of the time after 1 s, faster than 2 V %.3f; global sticking-time ratio %.3f; mean COF after "
          "1 s %.4f" % (stick, fast, ratio, mean_cof))
    fails = []
    # stick-slip, not steady sliding at V (which would give no time below v_s = V / 10 and none above 2 V): the
    # midpoint sticks 45 % and slips faster than 2 V 23 % of the time after 1 s (measured, h = 0.25); bounds 20 % and 5 %
    if not (stick > 0.2 and fast > 0.05 and 0.2 < ratio < 0.8):
        fails.append("no stick-slip: midpoint sticks %.3f, slips above 2 V %.3f, sticking-time ratio %.3f" % (stick, fast, ratio))
    # the body's mean acceleration is zero, so the mean friction equals the mean drive, which stick-slip keeps near the
    # kinetic friction mu_k N = 0.3 N (the paper's Fig. 14: fluctuations around mu_k; measured 0.2932 to 0.3077 over the
    # meshes): bound 0.3 +- 0.02
    if abs(mean_cof - 0.3) > 0.02:
        fails.append("mean COF %.4f not within 0.02 of mu_k = 0.3" % mean_cof)
    # the peak slip velocity of the midpoint is set by the LuGre damping: reference 51.27 mm/s (this input, h = 0.25,
    # dt = 1e-5 s; converged in time: dt = 0.8e-5 s gives 51.07, -0.4 %); bound 2 %. With sigma1 10 % higher it is
    # 46.97 mm/s (-8.4 %), with sigma2 10 % higher 44.51 (-13 %): both fail (measured 2026-11-23; the sticking ratio
    # and the mean COF moved by less than their time-step sensitivity, so they cannot tell)
    vmax = np.max(v)
    print("peak midpoint velocity %.3f mm/s (reference 51.27)" % (1e3 * vmax))
    if abs(vmax - 0.05127) > 0.02 * 0.05127:
        fails.append("peak midpoint velocity %.4g m/s not within 2 %% of the reference 0.05127" % vmax)
    # the figures show the run's data: midpoint displacement (mm), velocity (mm/s) from 2 to 2.5 s, the global COF
    # and the nodal sticking-time ratios (tests.common.figdata; mutation tried: postproc.slider2d plotting u_x in m
    # instead of mm in fig10-midpoint fails here; reverted)
    if not shows(shown["fig10-midpoint.png"][0][0], t, w["u_x"], 1e3):
        fails.append("fig10-midpoint.png does not show the midpoint displacement in mm")
    if not shows(shown["fig10-sticking.png"][0][0], t, v, 1e3):
        fails.append("fig10-sticking.png does not show the midpoint velocity in mm/s")
    if not np.array_equal(np.sort(shown["fig10-sticking.png"][1][0][2]), np.sort(nodal)):
        fails.append("fig10-sticking.png does not show the nodal sticking-time ratios")
    if not shows(shown["fig14-cof.png"][0][0], np.asarray(c["time"]), cof):
        fails.append("fig14-cof.png does not show the global COF")
    if fails:
        sys.exit("FAIL: " + "; ".join(fails))


def iga(prog, inp):
    """The IGA slider (contact at the control points of the patch's bottom face, weighted gaps and velocities, the
    forces of eq. 34 of the paper): with every control point driven the weighted velocity of each is exactly V, so
    steady_sliding() holds with its round-off bounds; then the input shortened to 3 s must stick and slip with the mean
    global COF at mu_k and close its energy balance."""
    with open(inp) as f:
        text = f.read()
    with tempfile.TemporaryDirectory() as tmp:
        fails = steady_sliding(prog, text, tmp)
        r = run_text(prog, set_attr(text, "time", "end", "3"), "velocity", tmp)
        w, c = r.history("/explicit/watch/mid"), r.history("/explicit/contact/floor")
        t, v, tc, cof = np.asarray(w["time"]), np.asarray(w["v_x"]), np.asarray(c["time"]), np.asarray(c["cof"])
        ratio = r.attrs("/explicit/contact_nodes/floor")["sticking_time_ratio"]
        drift, _, scale, _ = contact_energy.balance(r)
    V, vs, m = 0.01, 1e-3, t > 1
    rest, fast, mean_cof = np.mean(v[m] < vs), np.mean(v[m] > 2 * V), np.mean(cof[tc > 1])
    print("IGA midpoint: below v_s %.3f of the time over 1-3 s, faster than 2 V %.3f; sticking-time ratio %.3f; mean COF %.4f; "
          "energy drift %.2g of %.4g J" % (rest, fast, ratio, mean_cof, drift, scale))
    # stick-slip, not steady sliding at V (which gives no time below v_s = V / 10, none above 2 V and a sticking-time
    # ratio of 0): the control points stick 27 % of the time (the paper's measure), the midpoint (a point of the
    # physical face) slips faster than 2 V 5.8 % of the time and comes to rest or swings back (v < v_s) 2.2 % of it over
    # 1-3 s (measured, h = 0.25; this mesh sticks least of the five, docs/validation/slider2d.md): bounds 20 % for the
    # ratio, 1 % for each share of the midpoint
    if not (rest > 0.01 and fast > 0.01 and 0.2 < ratio < 0.8):
        fails.append("no stick-slip: midpoint below v_s %.3f, above 2 V %.3f, sticking-time ratio %.3f" % (rest, fast, ratio))
    # the mean friction equals the mean drive, which stick-slip keeps near mu_k N (velocity() above; measured 0.2942 for
    # IGA h = 0.25 over 1-3 s): bound 0.3 +- 0.02, as for Q4
    if abs(mean_cof - 0.3) > 0.02:
        fails.append("mean COF %.4f not within 0.02 of mu_k = 0.3" % mean_cof)
    # the face's forces are the derivative of the stored penalty energy and do on the body the work the friction law
    # sees (eq. 34), so the balance closes to round-off: measured 1.1e-8 of the energy in play; forces acting on the
    # control points themselves (the row sum of eq. 34, the earlier rule) drift by 4.5e-5 on this input over 5 s and
    # 1.2e-2 at h = 0.1 (docs/theory.md, "Energy of contact"): bound 1e-6
    if drift > 1e-6:
        fails.append("energy balance drifts by %.3g > 1e-6 of the energy in play" % drift)
    if fails:
        sys.exit("FAIL: " + "; ".join(fails))


def cyclic(prog, inp):
    with open(inp) as f:
        text = f.read()
    with tempfile.TemporaryDirectory() as tmp:
        r = run_text(prog, text, "cyclic", tmp)
        names = ("x0", "x025", "x05", "x075", "x1")
        ws = [r.history("/explicit/watch/" + n) for n in names]
        shown = figures(lambda d: slider2d.cyclic(d, os.path.join(tmp, "cyclic")), tmp, ("fig16-cyclic.png",))
    t = np.asarray(ws[0]["time"])
    u = np.array([np.asarray(w["u_x"]) for w in ws])
    loaded, after = t <= 6.0, t >= 6.5
    amp = u[:, loaded].max(axis=1) - u[:, loaded].min(axis=1)
    drift = np.abs(u[:, -1] - u[:, np.argmax(after)])
    print("pre-sliding range of u_x at x = 0, 0.25, 0.5, 0.75, 1: %s mm; drift from 6.5 to 8 s: %s mm"
          % (" ".join("%.3f" % (1e3 * a) for a in amp), " ".join("%.4f" % (1e3 * d) for d in drift)))
    fails = []
    # below break-away the block only pre-slides: millimetres (measured at most 2.5 mm), against the 0.1 m the same
    # block slid when loaded at 0.9 mu_s N (above its break-away force of about 0.34 N); bound 5 mm
    if amp.max() > 5e-3:
        fails.append("gross sliding: u_x ranges over %.3g m > 5 mm" % amp.max())
    # the points nearer the loaded edge (x = 1) pre-slide more (the paper's Fig. 16): range at x = 1 above x = 0
    # (measured 2.7 times)
    if not amp[-1] > 1.5 * amp[0]:
        fails.append("pre-sliding at x = 1 (%.3g m) not larger than at x = 0 (%.3g m)" % (amp[-1], amp[0]))
    # after the force is removed the body stays put: drift over 1.5 s below 5 % of the pre-sliding range (measured 1 %)
    if drift.max() > 0.05 * amp.max():
        fails.append("drift after removal %.3g m > 5 %% of the pre-sliding range %.3g m" % (drift.max(), amp.max()))
    # the pre-sliding range at the loaded edge is set by the LuGre bristles and their damping: reference 2.788 mm (this
    # input, dt = 1e-5 s; converged in time: dt = 0.8e-5 s gives 2.760, -1.0 %; the other points move up to 22 %, so
    # only x = 1 is compared); bound 3 %. With sigma1 10 % higher it is 3.188 mm (+14 %), with sigma2 10 % higher 3.009
    # (+7.9 %): both fail (measured 2026-11-23)
    if abs(amp[-1] - 2.788e-3) > 0.03 * 2.788e-3:
        fails.append("pre-sliding range at x = 1 %.4g m not within 3 %% of the reference 2.788e-3 m" % amp[-1])
    # the figure shows the watch points' displacement and velocity in mm and mm/s (tests.common.figdata)
    for k, w in enumerate(ws):
        if not (shows(shown["fig16-cyclic.png"][0][k], t, w["u_x"], 1e3) and shows(shown["fig16-cyclic.png"][1][k], t, w["v_x"], 1e3)):
            fails.append("fig16-cyclic.png line %d does not show watch point %s" % (k, names[k]))
    if fails:
        sys.exit("FAIL: " + "; ".join(fails))


def main():
    cmd = sys.argv[1]
    if cmd == "elastic":
        elastic(*sys.argv[2:5])
    elif cmd == "energy":
        energy(sys.argv[2], sys.argv[3:])
    elif cmd == "velocity":
        velocity(sys.argv[2], sys.argv[3])
    elif cmd == "cyclic":
        cyclic(sys.argv[2], sys.argv[3])
    elif cmd == "iga":
        iga(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
