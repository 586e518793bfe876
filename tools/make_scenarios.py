#!/usr/bin/env python3
"""Writes the bundled scenarios under scenarios/ from the terrain and orders of
battle described in this file.

The .ron files it writes are the ones we ship, and they are meant to be read
and edited by hand; this script only spares us from counting hexes. Running it
again overwrites the .ron files, so a hand edit made there must be copied
back here (or the file simply left out of ALL). Run it from the repository
root:

    python3 tools/make_scenarios.py          # rewrite scenarios/*.ron
    python3 tools/make_scenarios.py --show   # also print each map with its units

Then `sauve check scenarios/*.ron`.

Hex geometry follows CONTRACT.md: flat-top hexes, offset (c, r), odd columns
half a hex lower. Free-space tables use square cells of `cell_cm`.
"""

import math
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "scenarios")

# ---------------------------------------------------------------------------
# Hex geometry (CONTRACT.md section 1).
# ---------------------------------------------------------------------------

DIRS = ["N", "NE", "SE", "S", "SW", "NW"]


def neighbour(c, r, d):
    odd = c & 1
    dc, dr = {
        "N": (0, -1),
        "S": (0, 1),
        "NE": (1, odd - 1),
        "SE": (1, odd),
        "SW": (-1, odd),
        "NW": (-1, odd - 1),
    }[d]
    return c + dc, r + dr


def to_cube(c, r):
    x = c
    z = r - (c - (c & 1)) // 2
    return x, -x - z, z


def from_cube(x, z):
    return x, z + (x - (x & 1)) // 2


def distance(a, b):
    ax, ay, az = to_cube(*a)
    bx, by, bz = to_cube(*b)
    return max(abs(ax - bx), abs(ay - by), abs(az - bz))


def cube_round(x, y, z):
    rx, ry, rz = round(x), round(y), round(z)
    dx, dy, dz = abs(rx - x), abs(ry - y), abs(rz - z)
    if dx > dy and dx > dz:
        rx = -ry - rz
    elif dy > dz:
        ry = -rx - rz
    else:
        rz = -rx - ry
    return rx, ry, rz


def hex_line(a, b):
    n = distance(a, b)
    ax, ay, az = to_cube(*a)
    bx, by, bz = to_cube(*b)
    out = []
    for i in range(n + 1):
        t = i / n if n else 0.0
        # A tiny nudge keeps the rounding off exact ties.
        x, y, z = cube_round(ax + (bx - ax) * t + 1e-6, ay + (by - ay) * t + 2e-6, az + (bz - az) * t - 3e-6)
        p = from_cube(x, z)
        if not out or out[-1] != p:
            out.append(p)
    return out


class HexMap:
    def __init__(self, w, h):
        self.w, self.h = w, h
        self.cells = [["."] * w for _ in range(h)]
        self.hexsides = []  # (c, r, dir, kind, note)

    def inside(self, c, r):
        return 0 <= c < self.w and 0 <= r < self.h

    def get(self, c, r):
        return self.cells[r][c]

    def set(self, c, r, ch, over=None):
        if self.inside(c, r) and (over is None or self.cells[r][c] in over):
            self.cells[r][c] = ch

    def disk(self, c, r, radius, ch, over="."):
        for rr in range(self.h):
            for cc in range(self.w):
                if distance((c, r), (cc, rr)) <= radius:
                    self.set(cc, rr, ch, over)

    def cells_of(self, pts, ch, over=None):
        for c, r in pts:
            self.set(c, r, ch, over)

    def path(self, waypoints, ch, over="."):
        pts = []
        for a, b in zip(waypoints, waypoints[1:]):
            seg = hex_line(a, b)
            pts.extend(seg if not pts else seg[1:])
        for c, r in pts:
            self.set(c, r, ch, over)
        return pts

    def boundary(self, inside, domain, kind, note, gaps=()):
        """Hexsides on every edge between a hex for which `inside` holds and a
        neighbour for which it does not, both within `domain`; `gaps` lists
        hex pairs left open (fords, bridges)."""
        gaps = {frozenset(g) for g in gaps}
        for r in range(self.h):
            for c in range(self.w):
                if not (domain(c, r) and inside(c, r)):
                    continue
                for d in DIRS:
                    b = neighbour(c, r, d)
                    if not self.inside(*b) or not domain(*b) or inside(*b):
                        continue
                    if frozenset([(c, r), b]) in gaps:
                        continue
                    self.hexsides.append((c, r, d, kind, note))

    def rows(self):
        return ["".join(row) for row in self.cells]


# ---------------------------------------------------------------------------
# Units and checks.
# ---------------------------------------------------------------------------

PROHIBITED = {"Artillery": set("wm~"), "Infantry": set("~"), "Cavalry": set("~")}


def d66(v):
    return 11 <= v <= 66 and 1 <= v // 10 <= 6 and 1 <= v % 10 <= 6


class Unit:
    def __init__(self, uid, side, arm, where, quality, size, name, **opt):
        self.id, self.side, self.arm = uid, side, arm
        self.where, self.quality, self.size, self.name = where, quality, size, name
        self.opt = opt


def check_hex(name, m, units, shocks, turns):
    ids = set()
    sides_at = {}
    for u in units:
        assert u.id not in ids, f"{name}: duplicate {u.id}"
        assert u.id.isascii(), u.id
        ids.add(u.id)
        c, r = u.where
        assert m.inside(c, r), f"{name}: {u.id} off map"
        t = m.get(c, r)
        assert t not in PROHIBITED[u.arm], f"{name}: {u.id} on {t!r}"
        assert d66(u.quality), f"{name}: {u.id} morale {u.quality}"
        assert 2 <= u.size <= 12, f"{name}: {u.id} strength"
        s = sides_at.setdefault((c, r), u.side)
        assert s == u.side, f"{name}: {u.id} shares a hex with an enemy"
    for s in shocks:
        assert s["unit"] in ids and s["cause"] in ids and 1 <= s["turn"] <= turns, s


def check_table(name, w_cm, h_cm, cell, m, units, shocks, turns, min_gap=15.0):
    ids = set()
    for u in units:
        assert u.id not in ids, f"{name}: duplicate {u.id}"
        ids.add(u.id)
        x, y = u.where
        assert 0 <= x <= w_cm and 0 <= y <= h_cm, f"{name}: {u.id} off table"
        if m.cells[min(int(y // cell), m.h - 1)][min(int(x // cell), m.w - 1)] == "~":
            print(f"{name}: {u.id} in river")
        assert -5 <= u.quality <= 5
    for a in units:
        for b in units:
            if a.id < b.id:
                dx, dy = a.where[0] - b.where[0], a.where[1] - b.where[1]
                assert math.hypot(dx, dy) >= min_gap, f"{name}: {a.id} and {b.id} are {math.hypot(dx, dy):.1f} cm apart"
    for s in shocks:
        assert s["unit"] in ids and s["cause"] in ids and 1 <= s["turn"] <= turns, s


def show(m, units, side_marks):
    grid = [list(row) for row in m.rows()]
    count = {}
    for u in units:
        c, r = u.where
        count[(c, r)] = count.get((c, r), 0) + 1
        mark = side_marks[u.side][{"Infantry": 0, "Cavalry": 1, "Artillery": 2}[u.arm]]
        grid[r][c] = mark if count[(c, r)] == 1 else "2"
    print("    " + "".join(str(c // 10) for c in range(m.w)))
    print("    " + "".join(str(c % 10) for c in range(m.w)))
    for r, row in enumerate(grid):
        print(f"{r:3} " + "".join(row))


# ---------------------------------------------------------------------------
# RON writing.
# ---------------------------------------------------------------------------


def q(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def ruler(w, indent):
    tens = "".join(str(c // 10) if c % 10 == 0 else " " for c in range(w))
    ones = "".join(str(c % 10) for c in range(w))
    return [f"{indent}//      {tens.rstrip()}", f"{indent}//      {ones}"]


def write_header(out, title, lines):
    out.append(f"// {title}")
    out.append("//")
    for l in lines:
        out.append(f"// {l}" if l else "//")
    out.append("")


def write_sides(out, sides):
    out.append("    sides: [")
    for s in sides:
        aggression = f", aggression: {s['aggression']:.2f}" if "aggression" in s else ""
        out.append(
            f"        (id: {q(s['id'])}, name: {q(s['name'])}, rear: {s['rear']}, control: {s['control']}{aggression}),"
            + (f"  // {s['note']}" if s.get("note") else "")
        )
    out.append("    ],")


def check_victory(name, m, units, v):
    """The checks `sauve check` makes on objectives, exits, corps and leaders,
    so that a mistake here shows up before the .ron is written."""
    side_of = {u.id: u.side for u in units}
    hexes = set()
    for o in v["objectives"]:
        c, r = o["at"]
        assert m.inside(c, r) and (c, r) not in hexes, f"{name}: objective {o}"
        # Objectives are the villages and towns the battle was fought over.
        assert m.get(c, r) in "vt", f"{name}: objective {o['name']} on {m.get(c, r)!r}"
        assert 1 <= o["points"] <= 100, o
        hexes.add((c, r))
    keys = set()
    for e in v["exits"]:
        assert (e["side"], e["edge"]) not in keys and 1 <= e["points"] <= 100, e
        keys.add((e["side"], e["edge"]))
    seen = set()
    for k in v["corps"]:
        for uid in k["units"]:
            assert side_of.get(uid) == k["side"], f"{name}: corps {k['id']}: {uid}"
            assert uid not in seen, f"{name}: {uid} in two corps"
            seen.add(uid)
        assert 1 <= k["breaks_at"] <= len(k["units"]), k["id"]
    ids = set()
    for l in v["leaders"]:
        assert l["id"] not in ids and side_of.get(l["with_"]) == l["side"] and 1 <= l["bonus"] <= 6, l
        ids.add(l["id"])


def write_victory(out, v):
    out.append("    // Victory: objective hexes score for whoever last held them alone; exits")
    out.append("    // score per increment that leaves across that edge without routing; a corps")
    out.append("    // breaks when `breaks_at` of its units are routed or gone, an army when all")
    out.append("    // its corps have (docs/rules.md, Victory).")
    out.append("    objectives: [")
    for o in v["objectives"]:
        c, r = o["at"]
        held = f", held_by: {q(o['held_by'])}" if o.get("held_by") else ""
        out.append(f"        (at: ({c}, {r}), points: {o['points']}, name: {q(o['name'])}{held}),")
    out.append("    ],")
    out.append("    exits: [")
    for e in v["exits"]:
        out.append(f"        (side: {q(e['side'])}, edge: {e['edge']}, points: {e['points']}),  // {e['note']}")
    out.append("    ],")
    out.append("    corps: [")
    for k in v["corps"]:
        out.append(
            f"        (id: {q(k['id'])}, side: {q(k['side'])}, name: {q(k['name'])}, breaks_at: {k['breaks_at']}, units: ["
        )
        ids = [q(u) for u in k["units"]]
        for i in range(0, len(ids), 5):
            out.append("            " + ", ".join(ids[i : i + 5]) + ",")
        out.append("        ]),")
    out.append("    ],")
    out.append("    // Leaders ride with a unit and lend their bonus to friends' morale checks nearby.")
    out.append("    leaders: [")
    for l in v["leaders"]:
        out.append(
            f"        (id: {q(l['id'])}, side: {q(l['side'])}, with: {q(l['with_'])}, bonus: {l['bonus']}, name: {q(l['name'])}),"
        )
    out.append("    ],")


def corps(cid, side, name, units, breaks_at=None):
    """A corps of these units, breaking at half of them (rounded up)."""
    ids = [u.id for u in units]
    # Half the units, rounded up, unless the battle says otherwise: the
    # bundled 1813 battles tune it so that neither side wins every seed.
    return dict(id=cid, side=side, name=name, units=ids, breaks_at=breaks_at or (len(ids) + 1) // 2)


def write_rows(out, m, row_notes, indent="            "):
    out.extend(ruler(m.w, indent))
    for r, row in enumerate(m.rows()):
        note = row_notes.get(r)
        out.append(f"{indent}{q(row)}," + (f"  // {r:2}  {note}" if note else f"  // {r:2}"))


def write_hexsides(out, m):
    out.append("        hexsides: [")
    by_note = {}
    order = []
    for c, r, d, kind, note in m.hexsides:
        if note not in by_note:
            by_note[note] = []
            order.append(note)
        by_note[note].append(f"(at: ({c}, {r}), side: {d}, kind: {kind})")
    for note in order:
        out.append(f"            // {note}")
        items = by_note[note]
        for i in range(0, len(items), 3):
            out.append("            " + " ".join(x + "," for x in items[i : i + 3]))
    out.append("        ],")


def unit_line_hex(u):
    c, r = u.where
    parts = [
        f"id: {q(u.id)}",
        f"side: {q(u.side)}",
        f"arm: {u.arm}",
        f"at: ({c}, {r})",
        f"morale: {u.quality}",
        f"strength: {u.size}",
    ]
    for k in ("formation", "facing", "readiness", "state", "limbered"):
        if k in u.opt:
            v = u.opt[k]
            if isinstance(v, bool):
                v = "true" if v else "false"
            elif isinstance(v, float):
                v = f"{v:.1f}"
            parts.append(f"{k}: {v}")
    parts.append(f"name: {q(u.name)}")
    return "(" + ", ".join(parts) + "),"


def unit_line_table(u):
    x, y = u.where
    parts = [
        f"id: {q(u.id)}",
        f"side: {q(u.side)}",
        f"arm: {u.arm}",
        f"pos: ({x:.1f}, {y:.1f})",
        f"facing: {float(u.opt.get('facing', 0.0)):.1f}",
        f"figures: {u.size}",
        f"valour: {u.quality}",
    ]
    for k in ("formation", "limbered", "state"):
        if k in u.opt:
            v = u.opt[k]
            if isinstance(v, bool):
                v = "true" if v else "false"
            parts.append(f"{k}: {v}")
    parts.append(f"name: {q(u.name)}")
    return "(" + ", ".join(parts) + "),"


def write_units(out, groups, line):
    out.append("    units: [")
    first = True
    for note, units in groups:
        if not first:
            out.append("")
        first = False
        for l in note.split("\n"):
            out.append(f"        // {l}")
        for u in units:
            out.append("        " + line(u))
    out.append("    ],")


def write_shocks(out, shocks):
    out.append("    shocks: [")
    for s in shocks:
        out.append(f"        // {s['note']}")
        out.append(f"        (turn: {s['turn']}, unit: {q(s['unit'])}, to: {s['to']}, cause: {q(s['cause'])}),")
    out.append("    ],")


def write_staff(out, staff):
    out.append("    // Commanders behind their lines: a unit fleeing past one within 1 cm of")
    out.append("    // its rectangle gets the staff bonus to reorganise (rules 2.4).")
    out.append("    staff: [")
    for side, (x, y), name in staff:
        out.append(f"        (side: {q(side)}, pos: ({x:.1f}, {y:.1f}), name: {q(name)}),")
    out.append("    ],")


def scenario_text(meta, sides, map_lines, groups, shocks, line, rules_lines=None, victory=None, staff=None):
    out = []
    write_header(out, meta["title"], meta["header"])
    out.append("Scenario(")
    out.append("    format: 1,")
    out.append(f"    name: {q(meta['name'])},")
    out.append("    description: " + q(meta["description"]) + ",")
    if meta.get("mode"):
        out.append(f"    mode: {meta['mode']},")
    out.append(f"    turns: {meta['turns']},")
    out.append(f"    seed: {meta['seed']},")
    out.append("")
    write_sides(out, sides)
    out.append("")
    out.extend(map_lines)
    out.append("")
    write_units(out, groups, line)
    out.append("")
    write_shocks(out, shocks)
    if staff:
        out.append("")
        write_staff(out, staff)
    if victory:
        out.append("")
        write_victory(out, victory)
    if rules_lines:
        out.append("")
        out.extend(rules_lines)
    out.append(")")
    return "\n".join(out) + "\n"


def hex_map_lines(m, row_notes, legend_note):
    out = ["    map: ("]
    for l in legend_note:
        out.append(f"        // {l}")
    out.append("        rows: [")
    write_rows(out, m, row_notes)
    out.append("        ],")
    write_hexsides(out, m)
    out.append("    ),")
    return out


def table_map_lines(m, cell, row_notes, legend_note):
    out = ["    map: ("]
    for l in legend_note:
        out.append(f"        // {l}")
    out.append("        rows: [")
    indent = "            "
    out.append(f"{indent}//      x = 0 cm at the left edge; each character is {cell:g} cm wide")
    write_rows(out, m, row_notes)
    out.append("        ],")
    out.append(f"        cell_cm: {cell:.1f},")
    out.append("    ),")
    return out


LEGEND_NOTE = [
    "Default legend: . clear  w woods  t town  v village  g gardens",
    "                m marsh  ~ river  = bridge  r road",
    "Flat-top hexes: odd columns sit half a hex lower than even ones.",
]


# ---------------------------------------------------------------------------
# Grossbeeren, 23 August 1813.
# ---------------------------------------------------------------------------


def grossbeeren():
    W, H = 36, 24
    m = HexMap(W, H)
    # The Nuthe: a river down the western edge, bridged on the Ruhlsdorf road.
    nuthe = m.path([(1, 0), (2, 6), (1, 11), (2, 17), (1, 23)], "~", over=None)
    # Marsh along the Nuthe and the wet meadows (the Beeren marsh) that run
    # east from it, south of Grossbeeren.
    for c, r in nuthe:
        if r >= 12:
            m.set(c + 1, r, "m")
            m.set(c + 2, r, "m")
    m.cells_of([(c, 14) for c in range(4, 13)] + [(c, 15) for c in range(4, 11)] + [(4, 16), (5, 16), (6, 16)], "m", over=".")
    m.cells_of([(8, 15), (9, 14)], ".")  # a causeway of firmer ground
    # Woods: the Heinersdorf heath (north-east), the Blankenfelde woods
    # (south-east), copses on the Nuthe side.
    m.disk(28, 3, 2, "w")
    m.disk(31, 2, 1, "w")
    m.disk(33, 21, 2, "w")
    m.disk(30, 22, 1, "w")
    m.disk(8, 19, 2, "w")
    m.disk(11, 21, 1, "w")
    m.disk(23, 18, 1, "w")
    m.disk(11, 5, 1, "w")
    # Roads. The Berlin road runs north from Grossbeeren through Heinersdorf;
    # south it goes on to Trebbin. Side roads to Kleinbeeren and
    # Blankenfelde (east) and to Ruhlsdorf, the Nuthe bridge and Teltow (west).
    m.path([(18, 0), (18, 3), (17, 10)], "r")
    m.path([(17, 13), (17, 17), (15, 23)], "r")
    m.path([(18, 11), (27, 9)], "r")
    m.path([(27, 10), (31, 17), (35, 18)], "r")
    m.path([(16, 11), (6, 9)], "r")
    m.path([(6, 8), (6, 3)], "r")
    m.path([(5, 9), (0, 9)], "r", over=".~m")
    # Villages and towns (after the roads, so the road runs into them).
    m.cells_of([(5, 1), (6, 1), (6, 2), (7, 2), (5, 2)], "t")  # Teltow
    m.cells_of([(18, 3), (19, 3), (18, 4)], "v")  # Heinersdorf
    m.cells_of([(6, 9), (7, 9), (6, 10)], "v")  # Ruhlsdorf
    m.cells_of([(16, 11), (18, 11), (17, 12), (16, 12)], "v")  # Grossbeeren
    m.set(17, 11, "t")  # church and manor
    m.cells_of([(15, 11), (15, 12), (19, 11), (19, 12), (18, 12), (16, 13)], "g")
    m.cells_of([(27, 9), (28, 9), (27, 10)], "v")  # Kleinbeeren
    m.cells_of([(26, 9), (28, 10)], "g")
    m.cells_of([(31, 17), (32, 17), (31, 18)], "v")  # Blankenfelde
    m.cells_of([(30, 17), (32, 18)], "g")
    # River crossings: the road hexes on the Nuthe are bridges.
    for r in range(H):
        for c in range(4):
            if m.get(c, r) == "r" and (c, r) in set(nuthe):
                m.set(c, r, "=")
    # The Lilograben: a ditch-like stream just south of the village, from the
    # Nuthe marsh east to the Blankenfelde road. Open at the Trebbin road
    # bridge (17, 13)-(17, 14).
    south_of = {c: (13 if c < 15 or c > 20 else 14) for c in range(W)}
    m.boundary(
        lambda c, r: r <= south_of[c],
        lambda c, r: 4 <= c <= 29,
        "Stream",
        "the Lilograben, south of Grossbeeren (open at the Trebbin road bridge)",
        gaps=[((17, 14), (17, 15))],
    )
    # The windmill rise north of the village, where Bülow massed his guns.
    hill = {(c, r) for c in range(14, 22) for r in range(6, 8)} | {(15, 5), (16, 5), (17, 5), (18, 5), (19, 5), (20, 5)}
    m.boundary(
        lambda c, r: (c, r) in hill,
        lambda c, r: True,
        "Slope",
        "the windmill rise north of Grossbeeren: slopes all round",
    )
    return m


def grossbeeren_units():
    U = Unit
    F, P = "fr", "pr"
    fr_village = [
        U("sx-gren-spiegel", F, "Infantry", (16, 11), 43, 5, "Saxon Grenadier Bn von Spiegel", formation="GeneralOrder"),
        U("sx-1-konig", F, "Infantry", (17, 11), 44, 6, "1st Bn Saxon König Regiment", formation="GeneralOrder"),
        U("sx-2-konig", F, "Infantry", (18, 11), 44, 6, "2nd Bn Saxon König Regiment", formation="GeneralOrder"),
        U("sx-1-niesemeuschel", F, "Infantry", (16, 12), 45, 6, "1st Bn Saxon von Niesemeuschel", formation="GeneralOrder"),
        U("sx-2-niesemeuschel", F, "Infantry", (17, 12), 45, 6, "2nd Bn Saxon von Niesemeuschel", formation="GeneralOrder"),
        U("sx-gren-brause", F, "Infantry", (18, 12), 44, 5, "Saxon Grenadier Bn von Brause", formation="GeneralOrder"),
        U("sx-bat-dietrich", F, "Artillery", (17, 13), 44, 2, "Saxon 12-pdr Battery"),
        U("sx-1-rechten", F, "Infantry", (17, 13), 52, 6, "1st Bn Saxon von Rechten", formation="Column"),
    ]
    fr_west = [
        U("sx-1-prinz-anton", F, "Infantry", (14, 11), 45, 6, "1st Bn Saxon Prinz Anton"),
        U("sx-2-prinz-anton", F, "Infantry", (13, 11), 45, 6, "2nd Bn Saxon Prinz Anton"),
        U("sx-1-low", F, "Infantry", (12, 11), 52, 5, "1st Bn Saxon von Löw"),
        U("sx-2-low", F, "Infantry", (14, 12), 52, 5, "2nd Bn Saxon von Löw"),
        U("sx-bat-rouvroy", F, "Artillery", (11, 11), 44, 2, "Saxon Foot Battery von Rouvroy"),
        U("sx-hussars", F, "Cavalry", (10, 12), 43, 6, "Saxon Hussar Regiment"),
    ]
    fr_east = [
        U("sx-1-maximilian", F, "Infantry", (20, 11), 44, 6, "1st Bn Saxon Prinz Maximilian"),
        U("sx-2-maximilian", F, "Infantry", (21, 12), 44, 6, "2nd Bn Saxon Prinz Maximilian"),
        U("sx-bat-horse", F, "Artillery", (19, 13), 43, 2, "Saxon Horse Battery von Birnbaum"),
        U("sx-uhlans", F, "Cavalry", (23, 12), 43, 6, "Saxon Prinz Clemens Uhlans"),
    ]
    fr_durutte = [
        U("fr-1-35l", F, "Infantry", (17, 15), 42, 6, "1er Bn 35e Léger", formation="Column"),
        U("fr-2-35l", F, "Infantry", (17, 15), 46, 6, "2e Bn 35e Léger", formation="Column"),
        U("fr-1-131", F, "Infantry", (17, 16), 53, 6, "1er Bn 131e Ligne", formation="Column"),
        U("fr-2-131", F, "Infantry", (17, 16), 53, 6, "2e Bn 131e Ligne", formation="Column"),
        U("fr-1-132", F, "Infantry", (17, 17), 54, 7, "1er Bn 132e Ligne", formation="Column"),
        U("fr-2-132", F, "Infantry", (16, 15), 53, 7, "2e Bn 132e Ligne"),
        U("fr-1-133", F, "Infantry", (18, 15), 52, 7, "1er Bn 133e Ligne"),
        U("fr-bat-durutte", F, "Artillery", (17, 18), 43, 2, "Foot Battery 14/4e Artillerie", limbered=True),
    ]
    pr_centre = [
        U("pr-1-colberg", P, "Infantry", (16, 8), 33, 7, "1st Bn Colberg Regiment"),
        U("pr-2-colberg", P, "Infantry", (17, 8), 33, 7, "2nd Bn Colberg Regiment"),
        U("pr-f-colberg", P, "Infantry", (18, 8), 34, 6, "Fusilier Bn Colberg Regiment"),
        U("pr-1-9res", P, "Infantry", (15, 8), 42, 7, "1st Bn 9th Reserve Regiment"),
        U("pr-2-9res", P, "Infantry", (19, 8), 42, 7, "2nd Bn 9th Reserve Regiment"),
        U("pr-1-kurmark-lw", P, "Infantry", (17, 9), 52, 8, "1st Bn 1st Kurmark Landwehr", formation="Column"),
        U("pr-bat-5", P, "Artillery", (16, 6), 33, 2, "Prussian Foot Battery No. 5"),
        U("ru-bat-diterichs", P, "Artillery", (18, 6), 32, 3, "Russian Heavy Battery No. 7 (Diterichs)"),
    ]
    pr_west = [
        U("pr-1-pomeranian", P, "Infantry", (12, 8), 32, 7, "1st Bn 1st Pomeranian Regiment"),
        U("pr-2-pomeranian", P, "Infantry", (11, 8), 32, 7, "2nd Bn 1st Pomeranian Regiment"),
        U("pr-queens-dragoons", P, "Cavalry", (9, 9), 33, 8, "Queen's Dragoons"),
        U("pr-bat-6", P, "Artillery", (13, 7), 34, 2, "Prussian Foot Battery No. 6"),
    ]
    pr_borstell = [
        U("pr-1-elbe", P, "Infantry", (23, 9), 42, 7, "1st Bn Elbe Regiment"),
        U("pr-2-elbe", P, "Infantry", (24, 9), 42, 7, "2nd Bn Elbe Regiment"),
        U("pr-kurmark-lw-2", P, "Infantry", (27, 9), 53, 8, "2nd Kurmark Landwehr", formation="GeneralOrder"),
        U("pr-pomeranian-hussars", P, "Cavalry", (26, 11), 33, 6, "Pomeranian Hussars"),
        U("pr-horse-bat-11", P, "Artillery", (22, 8), 34, 2, "Prussian Horse Battery No. 11"),
    ]
    groups = [
        ("=== French and Saxons (VII Corps, Reynier) ===\nSaxon 21st Division in Grossbeeren: general order in the houses and the churchyard;\na battery and a battalion block the Trebbin road at the south end of the village", fr_village),
        ("Saxon brigade west of the village, facing the Pomeranians; the Saxon hussars guard the marsh flank", fr_west),
        ("Saxon brigade east of the village, towards Kleinbeeren", fr_east),
        ("Durutte's 32nd Division, still in column of march on the Trebbin road south of the Lilograben", fr_durutte),
        ("=== Prussians (III Corps, Bülow) ===\nHessen-Homburg's and Krafft's brigades facing the village; the grand battery on the windmill rise", pr_centre),
        ("Thümen's brigade on the western flank", pr_west),
        ("Borstell's brigade, come across from Kleinbeeren against the Saxon right", pr_borstell),
    ]
    units = [u for _, g in groups for u in g]
    return groups, units


def build_grossbeeren():
    m = grossbeeren()
    groups, units = grossbeeren_units()
    turns = 10
    # Balance (AI on both sides, seeds 1..40): a König battalion routing out
    # of the church on turn 1 ran down the Trebbin road through Durutte's
    # column and broke the whole army by turn 2-4 in nearly every game, so
    # that shock is gone and Borstell's attack only shakes the Saxon right,
    # a turn later. The Saxons get up to the fight by themselves.
    shocks = [
        dict(turn=3, unit="sx-2-maximilian", to="Disordered", cause="pr-1-elbe",
             note="Turn 3: Borstell's bayonet attack in the rain shakes the Saxon right."),
    ]
    check_hex("grossbeeren", m, units, shocks, turns)
    g = [u for _, u in groups]
    victory = dict(
        objectives=[
            # Worth a lot: the battle is about whether the Saxons keep the village.
            dict(at=(17, 11), points=15, name="Grossbeeren church", held_by="fr"),
            dict(at=(18, 3), points=3, name="Heinersdorf, on the Berlin road", held_by="pr"),
            dict(at=(27, 9), points=2, name="Kleinbeeren", held_by="pr"),
            dict(at=(6, 9), points=1, name="Ruhlsdorf"),
            dict(at=(31, 17), points=1, name="Blankenfelde"),
        ],
        exits=[dict(side="fr", edge="North", points=1, note="Reynier's orders: the road to Berlin")],
        corps=[
            # The shaky Saxons (morale 43-54 against the Prussians' 32-42)
            # rout easily but rally; their corps break late. The Prussian
            # brigades, which rarely rout, break early once they do.
            corps("sx-village", "fr", "Saxons in Grossbeeren", g[0], breaks_at=6),
            corps("sx-flanks", "fr", "Saxon brigades either side of the village", g[1] + g[2], breaks_at=8),
            corps("durutte", "fr", "Durutte's 32nd Division", g[3], breaks_at=6),
            corps("pr-centre", "pr", "Hessen-Homburg's and Krafft's brigades", g[4], breaks_at=3),
            corps("pr-thumen", "pr", "Thümen's brigade", g[5]),
            corps("pr-borstell", "pr", "Borstell's brigade", g[6], breaks_at=2),
        ],
        leaders=[
            dict(id="reynier", side="fr", with_="sx-2-konig", bonus=4, name="Reynier"),
            dict(id="durutte", side="fr", with_="fr-1-131", bonus=3, name="Durutte"),
            dict(id="bulow", side="pr", with_="pr-2-colberg", bonus=2, name="Bülow"),
            dict(id="borstell", side="pr", with_="pr-1-elbe", bonus=1, name="Borstell"),
        ],
    )
    check_victory("grossbeeren", m, units, victory)
    meta = dict(
        title="Grossbeeren, 23 August 1813: the evening counter-attack",
        header=[
            "Ground (north at the top, Berlin beyond the top edge):",
            "- Grossbeeren (church at 17,11) with its gardens sits on the Berlin-Trebbin road;",
            "  the Lilograben, a muddy stream, runs along the south of the village.",
            "- The windmill rise north of the village carries Bülow's grand battery; slope",
            "  hexsides ring it.",
            "- Heinersdorf (north), Kleinbeeren and Blankenfelde (east), Ruhlsdorf and Teltow",
            "  (west) are villages and a town; the Nuthe and its marsh close the west edge.",
            "The Saxons hold the village; Prussian brigades stand three to four hexes off.",
            "Morale is a d66 number: a check passes on a roll strictly above it, so 32 is",
            "a steady unit and 53 a shaky one.",
        ],
        name="Grossbeeren 1813",
        description=(
            "Evening of 23 August 1813, in steady rain: Reynier's Saxons have taken Grossbeeren on the road to Berlin, "
            "and Bülow's Prussians, ignoring orders to fall back, come on against the village with bayonets and a "
            "massed battery. The question is whether the Saxon line holds once the first battalion gives way."
        ),
        turns=turns,
        seed=1813,
    )
    sides = [
        dict(id="pr", name="Prussians and Russians", rear="North", control="Player", aggression=0.6,
             note="III Corps; its rear is Berlin, the top edge"),
        dict(id="fr", name="French and Saxons", rear="South", control="Ai", aggression=0.4,
             note="VII Corps; falls back towards Trebbin, the bottom edge"),
    ]
    notes = {
        0: "Berlin road leaves the top edge",
        1: "Teltow (town)",
        3: "Heinersdorf; the Heinersdorf heath to the east",
        5: "windmill rise (slopes)",
        9: "Ruhlsdorf; Kleinbeeren",
        11: "Grossbeeren: church (t), houses (v), gardens (g)",
        13: "Lilograben (stream hexsides) below this row",
        14: "the Beeren marsh",
        17: "Blankenfelde",
        19: "the Nuthe woods",
        21: "Blankenfelde woods",
        23: "Trebbin road leaves the bottom edge",
    }
    map_lines = hex_map_lines(m, notes, LEGEND_NOTE)
    rules = [
        "    // House rules changed for this battle; everything not named keeps its default.",
        "    rules: (",
        "        // Saxons who run off the bottom edge stream back towards Trebbin: out of",
        "        // the battle, but recorded as rallying off the map, not destroyed.",
        "        off_map_recovery: [South],",
        "    ),",
    ]
    text = scenario_text(meta, sides, map_lines, groups, shocks, unit_line_hex, rules, victory)
    return "grossbeeren-1813.ron", text, lambda: show(m, units, {"fr": "FKA", "pr": "PCB"})
# ---------------------------------------------------------------------------
# Hagelberg, 27 August 1813.
# ---------------------------------------------------------------------------


def hagelberg():
    W, H = 36, 24
    m = HexMap(W, H)
    # The Lübnitz mill brook: a river out of the north edge, past Lübnitz to
    # the west edge, with a wet margin.
    brook = m.path([(13, 0), (12, 3), (11, 6), (10, 8), (6, 10), (0, 12)], "~", over=None)
    for c, r in brook:
        for d in ("S", "SE"):
            b = neighbour(c, r, d)
            if m.inside(*b) and (c + r) % 3 != 0:
                m.set(*b, "m", over=".")
    # Woods: the Hagelberg forest (north-east), the Klein Glien woods (south-
    # west), a copse by the brook and the pine wood east of the hill.
    m.disk(30, 4, 3, "w")
    m.disk(26, 2, 1, "w")
    m.disk(5, 19, 2, "w")
    m.disk(8, 22, 1, "w")
    m.disk(15, 6, 1, "w")
    m.disk(29, 17, 2, "w")
    m.disk(33, 20, 1, "w")
    # Roads: Lübnitz - Hagelberg - Belzig (east edge); Klein Glien -
    # Hagelberg; Lübnitz north to Wiesenburg (top edge).
    m.path([(0, 4), (8, 5)], "r", over=".m")
    m.path([(9, 6), (18, 11)], "r", over=".~m")
    m.path([(21, 12), (35, 13)], "r")
    m.path([(14, 18), (19, 13)], "r")
    m.path([(14, 20), (13, 23)], "r")
    m.path([(8, 4), (9, 0)], "r", over=".~m")
    for c, r in brook:
        if m.get(c, r) == "r":
            m.set(c, r, "=")
    # Villages.
    m.cells_of([(8, 5), (9, 5), (8, 6), (9, 6)], "v")  # Lübnitz
    m.cells_of([(10, 5), (7, 6)], "g")
    m.cells_of([(19, 12), (20, 12), (19, 11)], "v")  # Hagelberg
    m.cells_of([(18, 11), (18, 12), (19, 13), (20, 13), (20, 11), (21, 13)], "g")  # its walled gardens
    m.cells_of([(14, 19), (15, 19), (14, 20)], "v")  # Klein Glien
    m.cells_of([(13, 19), (15, 20)], "g")
    m.cells_of([(33, 12), (34, 12), (34, 13), (33, 13)], "t")  # Belzig outskirts
    # The Verlorenwasser: a stream west of Hagelberg, running north-south from
    # the brook marsh to the Klein Glien woods; open where the Lübnitz road
    # crosses.
    west_of = {r: (14 if r < 12 else 13 if r < 16 else 12) for r in range(H)}
    road_x = [p for p in hex_line((9, 6), (18, 11))]
    gaps = [(a, b) for a, b in zip(road_x, road_x[1:])]
    m.boundary(
        lambda c, r: c <= west_of[r],
        lambda c, r: 9 <= r <= 18,
        "Stream",
        "the Verlorenwasser, west of Hagelberg (open at the Lübnitz road)",
        gaps=gaps,
    )
    # The Hagelberg itself: the hilltop east of the village, slopes all round.
    top = {(c, r) for c in range(21, 25) for r in range(10, 13)} | {(22, 9), (23, 9), (22, 13), (23, 13)}
    m.boundary(lambda c, r: (c, r) in top, lambda c, r: True, "Slope", "the Hagelberg hilltop: slopes all round")
    # A lower spur running south to the Klein Glien road.
    spur = {(18, 15), (19, 15), (18, 16), (19, 16), (19, 17)}
    m.boundary(lambda c, r: (c, r) in spur, lambda c, r: True, "Slope", "the spur south of the village")
    return m


def hagelberg_units():
    U = Unit
    F, A = "fr", "al"
    E, Wf = 60.0, 300.0  # French face east (north-east hexside), allies west
    fr_village = [
        U("fr-1-19", F, "Infantry", (19, 12), 43, 6, "1er Bn 19e Ligne", formation="GeneralOrder", facing=E),
        U("fr-2-19", F, "Infantry", (19, 11), 43, 6, "2e Bn 19e Ligne", formation="GeneralOrder", facing=E),
        U("fr-3-19", F, "Infantry", (20, 12), 44, 5, "3e Bn 19e Ligne", formation="GeneralOrder", facing=E),
        U("fr-1-26l", F, "Infantry", (20, 11), 42, 5, "1er Bn 26e Léger", formation="GeneralOrder", facing=E),
        U("fr-2-26l", F, "Infantry", (20, 13), 42, 5, "2e Bn 26e Léger", facing=E),
    ]
    fr_hill = [
        U("fr-1-56", F, "Infantry", (21, 10), 44, 6, "1er Bn 56e Ligne", facing=E),
        U("fr-2-56", F, "Infantry", (21, 11), 44, 6, "2e Bn 56e Ligne", facing=E),
        U("fr-bat-girard", F, "Artillery", (21, 12), 43, 2, "Foot Battery 3/5e Artillerie", facing=E),
        U("fr-1-westph4", F, "Infantry", (20, 9), 53, 6, "1st Bn Westphalian 4th Line", facing=E),
        U("fr-2-westph4", F, "Infantry", (19, 9), 53, 6, "2nd Bn Westphalian 4th Line", facing=E),
    ]
    fr_reserve = [
        U("fr-1-93", F, "Infantry", (17, 10), 52, 6, "1er Bn 93e Ligne", formation="Column", facing=E),
        U("fr-2-93", F, "Infantry", (17, 10), 52, 6, "2e Bn 93e Ligne", formation="Column", facing=E),
        U("fr-horse-bat", F, "Artillery", (16, 10), 43, 2, "Horse Battery 6/1er Artillerie à Cheval", facing=E, limbered=True),
        U("fr-1-134", F, "Infantry", (15, 9), 54, 7, "1er Bn 134e Ligne", formation="Column", facing=E),
        U("fr-2-134", F, "Infantry", (15, 9), 54, 6, "2e Bn 134e Ligne", formation="Column", facing=E),
        U("fr-train", F, "Artillery", (13, 8), 55, 2, "Divisional artillery park", facing=E, limbered=True),
        U("fr-chass", F, "Cavalry", (19, 16), 44, 4, "Provisional Chasseurs à Cheval", facing=E),
        U("fr-lancers", F, "Cavalry", (17, 7), 43, 4, "Polish Lancer squadrons", facing=E),
    ]
    al_landwehr = [
        U("al-1-1lw", A, "Infantry", (24, 12), 45, 7, "1st Bn 1st Kurmark Landwehr", facing=Wf),
        U("al-2-1lw", A, "Infantry", (24, 13), 45, 7, "2nd Bn 1st Kurmark Landwehr", facing=Wf),
        U("al-1-7lw", A, "Infantry", (25, 11), 44, 7, "1st Bn 7th Kurmark Landwehr", facing=Wf),
        U("al-2-7lw", A, "Infantry", (24, 10), 44, 7, "2nd Bn 7th Kurmark Landwehr", facing=Wf),
        U("al-3-7lw", A, "Infantry", (23, 14), 46, 7, "3rd Bn 7th Kurmark Landwehr", facing=Wf),
        U("al-1-2lw", A, "Infantry", (25, 13), 52, 8, "1st Bn 2nd Kurmark Landwehr", formation="Column", facing=Wf),
        U("al-2-2lw", A, "Infantry", (22, 15), 52, 8, "2nd Bn 2nd Kurmark Landwehr", facing=Wf),
    ]
    al_regulars = [
        U("al-f-res", A, "Infantry", (23, 8), 34, 6, "Fusilier Bn, Reserve Regiment", facing=Wf),
        U("al-1-res", A, "Infantry", (24, 9), 35, 7, "1st Bn, Reserve Regiment", facing=Wf),
        U("al-bat-17", A, "Artillery", (26, 12), 35, 2, "Prussian Foot Battery No. 17", facing=Wf),
        U("al-lw-cav", A, "Cavalry", (25, 15), 45, 6, "3rd Kurmark Landwehr Cavalry", facing=Wf),
    ]
    al_cossacks = [
        U("al-cossacks-grekov", A, "Cavalry", (18, 5), 34, 6, "Grekov's Don Cossacks (Chernyshev)", facing=180.0),
        U("al-cossacks-illov", A, "Cavalry", (21, 6), 35, 6, "Illovaisky's Don Cossacks", facing=240.0),
    ]
    groups = [
        ("=== Girard's division (French, with Westphalians and Poles), rear to the west ===\nHagelberg village and its walled gardens", fr_village),
        ("on the hilltop and its northern shoulder", fr_hill),
        ("the reserve in column on the Lübnitz road, the only way back over the Verlorenwasser;\nthe cavalry on both flanks", fr_reserve),
        ("=== Hirschfeld's corps (Prussians and Russians), rear to the east ===\nKurmark Landwehr facing the village and the hill; few had fired a shot before today", al_landwehr),
        ("the line battalions and guns of the reserve", al_regulars),
        ("Chernyshev's Cossacks, come round the north side of the hill", al_cossacks),
    ]
    units = [u for _, g in groups for u in g]
    return groups, units


def build_hagelberg():
    m = hagelberg()
    groups, units = hagelberg_units()
    turns = 10
    shocks = [
        dict(turn=1, unit="fr-1-56", to="Routed", cause="al-2-7lw",
             note="Turn 1: the Landwehr, muskets too wet to fire, go in with the bayonet and the butt on the hilltop."),
        dict(turn=2, unit="fr-3-19", to="Disordered", cause="al-1-1lw",
             note="Turn 2: the fight reaches the garden walls of the village."),
    ]
    check_hex("hagelberg", m, units, shocks, turns)
    g = [u for _, u in groups]
    victory = dict(
        objectives=[
            dict(at=(19, 12), points=10, name="Hagelberg village", held_by="fr"),
            dict(at=(8, 5), points=2, name="Lübnitz and its bridge", held_by="fr"),
            dict(at=(14, 19), points=1, name="Klein Glien"),
            dict(at=(33, 12), points=2, name="Belzig", held_by="al"),
        ],
        exits=[dict(side="fr", edge="West", points=1, note="what Girard brings home to Magdeburg")],
        corps=[
            # Balance (AI on both sides): at half strength Girard's corps broke
            # in 38 games of 40. His veterans hold on longer; the raw Landwehr,
            # few of whom had fired a shot before, break sooner.
            corps("girard-front", "fr", "Girard's village and hill brigades", g[0] + g[1], breaks_at=8),
            corps("girard-reserve", "fr", "Girard's reserve and cavalry", g[2], breaks_at=6),
            corps("landwehr", "al", "Putlitz's Kurmark Landwehr", g[3], breaks_at=3),
            corps("hirschfeld-reserve", "al", "Hirschfeld's regulars and Cossacks", g[4] + g[5]),
        ],
        leaders=[
            dict(id="girard", side="fr", with_="fr-1-19", bonus=2, name="Girard"),
            dict(id="hirschfeld", side="al", with_="al-1-res", bonus=2, name="Hirschfeld"),
            dict(id="putlitz", side="al", with_="al-1-1lw", bonus=1, name="Putlitz"),
        ],
    )
    check_victory("hagelberg", m, units, victory)
    meta = dict(
        title="Hagelberg, 27 August 1813: the Landwehr at the garden walls",
        header=[
            "Ground (north at the top; the French came from Magdeburg, the west edge):",
            "- Hagelberg village (19-20, 11-12) with walled gardens; the hill just east of it",
            "  is ringed with slope hexsides, and a lower spur runs south.",
            "- The Verlorenwasser (stream hexsides) runs north-south west of the village, open",
            "  only at the Lübnitz road; the Lübnitz mill brook (river) crosses the north-west",
            "  corner, bridged at Lübnitz.",
            "- Klein Glien (south) and Lübnitz (north-west) are villages; Belzig's outskirts",
            "  lie on the east edge; woods north-east, south-west and east of the hill.",
            "French face east, the Landwehr west: 3 to 4 hexes apart across the hill.",
        ],
        name="Hagelberg 1813",
        description=(
            "27 August 1813, near Belzig: Girard's column out of Magdeburg is caught by Hirschfeld's corps, most of it "
            "raw Kurmark Landwehr. In driving rain the muskets will not fire, and the fight for the village walls and the "
            "hill is settled with bayonets and clubbed muskets."
        ),
        turns=turns,
        seed=27081813,
    )
    sides = [
        dict(id="al", name="Prussians and Russians", rear="East", control="Player", aggression=0.7,
             note="Hirschfeld; its rear is Belzig and the east edge"),
        dict(id="fr", name="Girard's division", rear="West", control="Ai", aggression=0.5,
             note="its way home to Magdeburg is the west edge"),
    ]
    notes = {
        0: "Wiesenburg road and the mill brook leave the top edge",
        4: "Lübnitz road from the west edge",
        5: "Lübnitz (village), bridge over the mill brook",
        9: "the Hagelberg hilltop (rows 9-13, slopes)",
        11: "Hagelberg village and gardens",
        12: "Belzig outskirts (town) on the east edge",
        15: "the spur south of the village (slopes)",
        17: "pine wood east of the hill",
        19: "Klein Glien; Klein Glien woods to the west",
        23: "road south leaves the bottom edge",
    }
    map_lines = hex_map_lines(m, notes, LEGEND_NOTE)
    text = scenario_text(meta, sides, map_lines, groups, shocks, unit_line_hex, victory=victory)
    return "hagelberg-1813.ron", text, lambda: show(m, units, {"fr": "FKA", "al": "PCB"})
# ---------------------------------------------------------------------------
# Dennewitz, 6 September 1813.
# ---------------------------------------------------------------------------


def dennewitz():
    W, H = 40, 26
    m = HexMap(W, H)
    # The Ahe: a slow river across the map from west to east, through
    # Dennewitz and past Rohrbeck.
    ahe = m.path([(0, 15), (9, 16), (16, 14), (24, 15), (30, 12), (39, 13)], "~", over=None)
    for c, r in ahe:
        if c < 9 or 20 <= c <= 26:
            m.set(c, r + 1, "m", over=".")
    # Woods: the Jüterbog heath to the north-east, the Oehna woods in the
    # south-west, copses on the ridge.
    m.disk(34, 4, 3, "w")
    m.disk(38, 8, 1, "w")
    m.disk(4, 22, 2, "w")
    m.disk(8, 24, 1, "w")
    m.disk(10, 3, 1, "w")
    m.disk(25, 21, 2, "w")
    # Roads: the Wittenberg - Jüterbog road through Dennewitz and Rohrbeck;
    # Gölsdorf - Dennewitz; north to Berlin; south to Oehna.
    roads = [
        m.path([(0, 19), (8, 18), (16, 15), (16, 14)], "r", over=".m~"),
        m.path([(5, 10), (6, 17)], "r", over=".m~"),
        m.path([(16, 13), (23, 12), (29, 11), (39, 10)], "r", over=".m~"),
        m.path([(5, 9), (15, 12)], "r", over=".m~"),
        m.path([(17, 12), (19, 5), (20, 0)], "r", over=".m~"),
        m.path([(29, 10), (30, 14), (31, 25)], "r", over=".m~"),
        m.path([(6, 17), (5, 25)], "r", over=".m~"),
    ]
    on_ahe = set(ahe)
    for road in roads:
        for p in road:
            if p in on_ahe:
                m.set(*p, "=")
    # Villages (never over the river itself).
    land = ".rmw"
    # Dennewitz: the Berlin road runs through it to the bridge at (16, 14).
    m.cells_of([(15, 13), (17, 13), (16, 12), (15, 12)], "v", over=".mw")
    m.set(15, 13, "t")  # church
    m.cells_of([(14, 12), (14, 13), (18, 13), (18, 12), (17, 12)], "g", over=".mw")
    m.cells_of([(5, 9), (6, 9), (5, 10), (4, 9)], "v", over=land)  # Gölsdorf
    m.cells_of([(6, 10), (4, 10)], "g", over=land)
    m.cells_of([(29, 10), (30, 10), (29, 11)], "v", over=land)  # Rohrbeck
    m.cells_of([(28, 10), (31, 11)], "g", over=land)
    m.cells_of([(6, 17), (7, 18), (6, 18), (5, 17)], "v", over=land)  # Niedergörsdorf
    m.cells_of([(30, 19), (31, 19), (30, 20)], "v", over=land)  # Oehna
    m.cells_of([(37, 22), (38, 22), (38, 23), (39, 22), (37, 23)], "t", over=land)  # Jüterbog
    # The Tauentzien ridge north of Dennewitz: a long low rise with slopes on
    # its southern face, where the Prussian line stood.
    ridge = {(c, r) for c in range(11, 26) for r in range(0, 7)}
    m.boundary(lambda c, r: (c, r) in ridge, lambda c, r: r >= 5, "Slope",
               "the southern face of the ridge north of Dennewitz")
    # The Agerbach: a stream from the north into the Ahe above Rohrbeck,
    # open at the Jüterbog road.
    jroad = roads[1]
    m.boundary(lambda c, r: c <= 26, lambda c, r: r <= 10, "Stream",
               "the Agerbach, a stream running south to the Ahe (open at the Jüterbog road)",
               gaps=list(zip(jroad, jroad[1:])))
    return m


def dennewitz_units():
    U = Unit
    F, A = "fr", "al"
    bertrand = [
        U("wu-1-1", F, "Infantry", (14, 9), 45, 5, "1st Bn Württemberg 1st Line (Prinz Paul)"),
        U("wu-2-1", F, "Infantry", (15, 9), 45, 5, "2nd Bn Württemberg 1st Line"),
        U("wu-1-2", F, "Infantry", (16, 9), 46, 5, "1st Bn Württemberg 2nd Line (Herzog Wilhelm)"),
        U("wu-2-2", F, "Infantry", (17, 9), 46, 5, "2nd Bn Württemberg 2nd Line"),
        U("wu-1-7", F, "Infantry", (18, 9), 45, 5, "1st Bn Württemberg 7th Line"),
        U("wu-2-7", F, "Infantry", (18, 9), 52, 5, "2nd Bn Württemberg 7th Line"),
        U("wu-bat", F, "Artillery", (18, 10), 44, 2, "Württemberg Foot Battery"),
        U("wu-lt-9", F, "Infantry", (17, 11), 44, 4, "Württemberg 9th Light Bn", formation="Column"),
        U("wu-lt-10", F, "Infantry", (17, 11), 45, 4, "Württemberg 10th Light Bn", formation="Column"),
        U("fr-1-13l", F, "Infantry", (19, 9), 42, 6, "1er Bn 13e Léger (Morand)"),
        U("fr-2-13l", F, "Infantry", (20, 9), 42, 6, "2e Bn 13e Léger"),
        U("fr-1-23", F, "Infantry", (21, 10), 43, 6, "1er Bn 23e Ligne"),
        U("it-1-1l", F, "Infantry", (12, 10), 53, 6, "1st Bn Italian 1st Light (Fontanelli)"),
        U("it-1-4", F, "Infantry", (16, 12), 53, 6, "1st Bn Italian 4th Line", formation="GeneralOrder"),
        U("it-2-4", F, "Infantry", (15, 12), 54, 6, "2nd Bn Italian 4th Line", formation="GeneralOrder"),
        U("it-1-6", F, "Infantry", (16, 13), 54, 6, "1st Bn Italian 6th Line", formation="Column"),
        U("it-chass", F, "Cavalry", (11, 12), 44, 4, "Italian Chasseurs à Cheval"),
    ]
    reynier = [
        U("sx-1-rechten", F, "Infantry", (6, 9), 44, 6, "1st Bn Saxon von Rechten", formation="GeneralOrder"),
        U("sx-2-rechten", F, "Infantry", (5, 10), 44, 6, "2nd Bn Saxon von Rechten", formation="GeneralOrder"),
        U("sx-gren", F, "Infantry", (8, 10), 43, 5, "Saxon Grenadier Bn von Anger"),
        U("sx-bat", F, "Artillery", (7, 11), 44, 2, "Saxon Foot Battery Kühnel"),
        U("sx-1-low", F, "Infantry", (5, 12), 52, 5, "1st Bn Saxon von Löw", formation="Column"),
        U("sx-2-low", F, "Infantry", (5, 12), 52, 5, "2nd Bn Saxon von Löw", formation="Column"),
    ]
    oudinot = [
        U("fr-1-132", F, "Infantry", (16, 15), 52, 7, "1er Bn 132e Ligne (Oudinot)", formation="Column"),
        U("fr-2-132", F, "Infantry", (15, 15), 52, 7, "2e Bn 132e Ligne", formation="Column"),
        U("fr-bat-xii", F, "Artillery", (14, 16), 44, 2, "XII Corps Foot Battery", limbered=True),
        U("fr-cuir", F, "Cavalry", (13, 18), 33, 6, "4e Cuirassiers"),
    ]
    tauentzien = [
        U("pr-1-3lw", A, "Infantry", (14, 6), 52, 8, "1st Bn 3rd Kurmark Landwehr"),
        U("pr-2-3lw", A, "Infantry", (15, 5), 52, 8, "2nd Bn 3rd Kurmark Landwehr"),
        U("pr-1-5lw", A, "Infantry", (17, 5), 53, 8, "1st Bn 5th Kurmark Landwehr"),
        U("pr-2-5lw", A, "Infantry", (18, 6), 53, 8, "2nd Bn 5th Kurmark Landwehr"),
        U("pr-1-1res", A, "Infantry", (20, 5), 42, 7, "1st Bn 1st Reserve Regiment"),
        U("pr-2-1res", A, "Infantry", (21, 6), 42, 7, "2nd Bn 1st Reserve Regiment"),
        U("pr-bat-tauentzien", A, "Artillery", (16, 4), 42, 2, "Prussian 6-pdr Battery No. 18"),
        U("pr-lw-cav", A, "Cavalry", (23, 6), 44, 6, "1st Pomeranian Landwehr Cavalry"),
    ]
    bulow = [
        U("pr-1-colberg", A, "Infantry", (8, 6), 33, 7, "1st Bn Colberg Regiment"),
        U("pr-2-colberg", A, "Infantry", (9, 6), 33, 7, "2nd Bn Colberg Regiment"),
        U("pr-1-elbe", A, "Infantry", (10, 7), 42, 7, "1st Bn Elbe Regiment"),
        U("pr-west-prussian-dragoons", A, "Cavalry", (3, 6), 34, 6, "West Prussian Dragoons"),
        U("pr-horse-bat-6", A, "Artillery", (11, 6), 34, 2, "Prussian Horse Battery No. 6"),
    ]
    allies = [
        U("ru-bat-21", A, "Artillery", (19, 4), 33, 3, "Russian Heavy Battery No. 21"),
        U("se-bat-cardell", A, "Artillery", (13, 5), 34, 2, "Swedish Horse Battery (Cardell)"),
        U("ru-cossacks", A, "Cavalry", (26, 7), 35, 6, "Don Cossack Regiment Illovaisky IV"),
    ]
    groups = [
        ("=== Army of Berlin (Ney), rear to the south ===\nBertrand's IV Corps north of the Ahe, against the ridge: Württembergers, Morand's French, Fontanelli's Italians", bertrand),
        ("Reynier's Saxons at Gölsdorf, on the western flank, with a brigade on the road to the\nNiedergörsdorf bridge", reynier),
        ("Oudinot's XII Corps, still south of the Ahe, jammed on the road at the Dennewitz bridge", oudinot),
        ("=== Army of the North (Prussians, Russians, Swedes), rear to the north ===\nTauentzien's IV Corps on the ridge: mostly Landwehr", tauentzien),
        ("Bülow's III Corps, come down from the north-west against Gölsdorf", bulow),
        ("Russian and Swedish guns sent forward by the Crown Prince, and a Cossack screen", allies),
    ]
    units = [u for _, g in groups for u in g]
    return groups, units


def build_dennewitz():
    m = dennewitz()
    groups, units = dennewitz_units()
    turns = 12
    shocks = [
        dict(turn=1, unit="wu-1-7", to="Routed", cause="pr-2-5lw",
             note="Turn 1: a Landwehr charge breaks the centre of the Württemberg line below the ridge."),
        dict(turn=2, unit="sx-gren", to="Routed", cause="pr-1-colberg",
             note="Turn 2: Bülow's Colbergers storm the edge of Gölsdorf."),
    ]
    check_hex("dennewitz", m, units, shocks, turns)
    g = [u for _, u in groups]
    victory = dict(
        objectives=[
            dict(at=(15, 13), points=4, name="Dennewitz church and bridge", held_by="fr"),
            dict(at=(5, 9), points=3, name="Gölsdorf", held_by="fr"),
            dict(at=(29, 10), points=2, name="Rohrbeck"),
            dict(at=(6, 17), points=1, name="Niedergörsdorf", held_by="fr"),
            dict(at=(37, 22), points=2, name="Jüterbog", held_by="fr"),
        ],
        exits=[dict(side="fr", edge="North", points=1, note="Ney's orders: the road to Berlin")],
        corps=[
            # Balance (AI on both sides): at half strength the Army of Berlin
            # broke in about 3 games of 4; its corps now hold a little longer.
            corps("IV", "fr", "IV Corps (Bertrand)", g[0], breaks_at=12),
            corps("VII", "fr", "VII Corps (Reynier)", g[1], breaks_at=4),
            corps("XII", "fr", "XII Corps (Oudinot)", g[2], breaks_at=3),
            corps("P-IV", "al", "Prussian IV Corps (Tauentzien)", g[3]),
            corps("P-III", "al", "Prussian III Corps (Bülow) and the allied guns", g[4] + g[5]),
        ],
        leaders=[
            dict(id="ney", side="fr", with_="fr-1-13l", bonus=4, name="Ney"),
            dict(id="reynier", side="fr", with_="sx-1-rechten", bonus=1, name="Reynier"),
            dict(id="tauentzien", side="al", with_="pr-1-1res", bonus=1, name="Tauentzien"),
            dict(id="bulow", side="al", with_="pr-1-colberg", bonus=2, name="Bülow"),
        ],
    )
    check_victory("dennewitz", m, units, victory)
    meta = dict(
        title="Dennewitz, 6 September 1813: Ney's march on Berlin ends at the Ahe",
        header=[
            "Ground (north at the top, towards Berlin; Jüterbog lies to the south-east):",
            "- The Ahe, a river with marshy banks, crosses the map west to east; it is",
            "  bridged at Dennewitz (on the Wittenberg road), below Niedergörsdorf and at",
            "  Rohrbeck. Routers of the Army of Berlin must find these bridges.",
            "- North of Dennewitz a long ridge (slope hexsides on its southern face) holds",
            "  Tauentzien's line; the Agerbach (stream hexsides) comes down from the north",
            "  into the Ahe above Rohrbeck.",
            "- Villages: Gölsdorf (west), Dennewitz (church at 15,13), Rohrbeck, Niedergörsdorf",
            "  and Oehna south of the river; Jüterbog (town) in the south-east corner.",
        ],
        name="Dennewitz 1813",
        description=(
            "6 September 1813: Ney drives on Berlin with Bertrand's, Reynier's and Oudinot's corps strung out along the "
            "road to Jüterbog. Tauentzien's Landwehr holds the ridge north of the Ahe until Bülow falls on the French "
            "flank at Gölsdorf, and an army of German, Italian and French contingents finds itself backed against a "
            "marshy brook."
        ),
        turns=turns,
        seed=6091813,
    )
    sides = [
        dict(id="fr", name="Army of Berlin (Ney)", rear="South", control="Ai", aggression=0.5,
             note="its line of retreat is south, across the Ahe"),
        dict(id="al", name="Army of the North", rear="North", control="Player", aggression=0.6,
             note="Prussians, Russians and Swedes; Berlin lies north"),
    ]
    notes = {
        0: "Berlin road leaves the top edge",
        3: "the ridge (rows 0-6; slopes on its south face)",
        9: "Gölsdorf (west); Rohrbeck (east)",
        10: "the Agerbach (stream) joins the Ahe",
        13: "Dennewitz, church at column 15; the Berlin road runs through to the bridge",
        15: "the Ahe (river, marshy banks)",
        17: "Niedergörsdorf",
        19: "Oehna",
        22: "Jüterbog (town)",
        25: "Oehna road leaves the bottom edge",
    }
    map_lines = hex_map_lines(m, notes, LEGEND_NOTE)
    text = scenario_text(meta, sides, map_lines, groups, shocks, unit_line_hex, victory=victory)
    return "dennewitz-1813.ron", text, lambda: show(m, units, {"fr": "FKA", "al": "PCB"})
# ---------------------------------------------------------------------------
# Cascade: a demonstration of contagion.
# ---------------------------------------------------------------------------


def cascade():
    W, H = 30, 22
    m = HexMap(W, H)
    # Open ground between the lines; woods and a farm behind the French.
    m.disk(6, 15, 2, "w")
    m.disk(23, 15, 2, "w")
    m.disk(3, 4, 1, "w")
    m.disk(26, 3, 1, "w")
    # The high road comes down the middle and forks behind the French line.
    # Routers take the road (half cost), so it is where the panic travels.
    m.path([(15, 0), (15, 12)], "r")
    sw = m.path([(15, 12), (9, 21)], "r")
    se = m.path([(15, 12), (21, 21)], "r")
    m.cells_of([(11, 17), (12, 17), (11, 18)], "v")  # a farm behind the line
    m.cells_of([(10, 17), (12, 18)], "g")
    m.cells_of([(16, 1), (17, 1)], "v")  # hamlet behind the Russians
    # A gentle fold: the Russian guns stand on it, the battalions at its foot.
    fold = {(c, r) for c in range(8, 22) for r in range(0, 3)}
    m.boundary(lambda c, r: (c, r) in fold, lambda c, r: r >= 2, "Slope", "the foot of a low fold below the Russian guns")
    return m, sw, se


def cascade_units(sw, se):
    U = Unit
    F, R = "fr", "ru"
    front = [
        U("fr-1-1", F, "Infantry", (12, 7), 44, 6, "1er Bn 1er Ligne"),
        U("fr-2-1", F, "Infantry", (13, 7), 45, 6, "2e Bn 1er Ligne"),
        U("fr-1-2", F, "Infantry", (14, 7), 45, 6, "1er Bn 2e Ligne"),
        U("fr-2-2", F, "Infantry", (14, 7), 52, 6, "2e Bn 2e Ligne (conscripts)"),
        U("fr-1-3", F, "Infantry", (15, 7), 44, 6, "1er Bn 3e Ligne"),
        U("fr-2-3", F, "Infantry", (15, 7), 51, 6, "2e Bn 3e Ligne"),
        U("fr-3-3", F, "Infantry", (15, 7), 53, 6, "3e Bn 3e Ligne (conscripts)"),
        U("fr-1-4", F, "Infantry", (16, 7), 45, 6, "1er Bn 4e Ligne"),
        U("fr-2-4", F, "Infantry", (17, 7), 44, 6, "2e Bn 4e Ligne"),
        U("fr-3-4", F, "Infantry", (18, 7), 46, 6, "3e Bn 4e Ligne"),
    ]
    second = [
        U("fr-1-5", F, "Infantry", (13, 9), 51, 6, "1er Bn 5e Ligne"),
        U("fr-2-5", F, "Infantry", (14, 9), 52, 6, "2e Bn 5e Ligne"),
        U("fr-1-6", F, "Infantry", (15, 9), 43, 6, "1er Bn 6e Ligne"),
        U("fr-2-6", F, "Infantry", (15, 9), 53, 6, "2e Bn 6e Ligne"),
        U("fr-3-6", F, "Infantry", (15, 9), 54, 6, "3e Bn 6e Ligne"),
        U("fr-1-7", F, "Infantry", (16, 9), 51, 6, "1er Bn 7e Ligne"),
        U("fr-2-7", F, "Infantry", (17, 9), 52, 6, "2e Bn 7e Ligne"),
    ]
    reserve = [
        U("fr-1-8", F, "Infantry", (15, 11), 44, 6, "1er Bn 8e Ligne", formation="Column"),
        U("fr-2-8", F, "Infantry", (15, 11), 53, 6, "2e Bn 8e Ligne", formation="Column"),
        U("fr-1-9", F, "Infantry", sw[2], 45, 6, "1er Bn 9e Léger", formation="Column"),
        U("fr-2-9", F, "Infantry", se[2], 45, 6, "2e Bn 9e Léger", formation="Column"),
        U("fr-bat-park", F, "Artillery", sw[4], 43, 2, "Reserve Battery 3/1er Artillerie", limbered=True),
        U("fr-train", F, "Artillery", se[4], 54, 2, "Artillery park and train"),
    ]
    support = [
        U("fr-bat-1", F, "Artillery", (11, 8), 43, 2, "Foot Battery 1/1er Artillerie"),
        U("fr-bat-2", F, "Artillery", (19, 8), 43, 2, "Foot Battery 2/1er Artillerie"),
        U("fr-hussars", F, "Cavalry", (10, 11), 44, 6, "7e Hussards"),
        U("fr-chasseurs", F, "Cavalry", (20, 11), 44, 6, "12e Chasseurs à Cheval"),
    ]
    russians = [
        U("ru-1-pavlov", R, "Infantry", (11, 3), 33, 7, "1st Bn Pavlov Grenadiers"),
        U("ru-2-pavlov", R, "Infantry", (13, 3), 33, 7, "2nd Bn Pavlov Grenadiers"),
        U("ru-1-tavrich", R, "Infantry", (14, 3), 34, 7, "1st Bn Tavrichesk Grenadiers"),
        U("ru-2-tavrich", R, "Infantry", (16, 3), 34, 7, "2nd Bn Tavrichesk Grenadiers"),
        U("ru-1-kexholm", R, "Infantry", (17, 3), 35, 7, "1st Bn Kexholm Regiment"),
        U("ru-2-kexholm", R, "Infantry", (18, 3), 35, 7, "2nd Bn Kexholm Regiment"),
        U("ru-bat-1", R, "Artillery", (15, 2), 33, 3, "Position Battery No. 1"),
        U("ru-akhtyrka", R, "Cavalry", (9, 2), 33, 8, "Akhtyrka Hussars"),
    ]
    groups = [
        ("=== The French line (rear: the bottom edge) ===\n"
         "Front rank: seven hexes, with the road hex (15, 7) three battalions deep\n"
         "and the shocked battalion's hex (14, 7) two deep", front),
        ("Second rank, two hexes behind; the road hex again three deep", second),
        ("Reserve in column on the road and its two branches, with the gun park behind", reserve),
        ("Guns on the wings, light cavalry behind them", support),
        ("=== The Russians (rear: the top edge), four hexes off ===", russians),
    ]
    units = [u for _, g in groups for u in g]
    return groups, units


def build_cascade():
    m, sw, se = cascade()
    groups, units = cascade_units(sw, se)
    turns = 8
    shocks = [
        dict(turn=1, unit="fr-1-2", to="Routed", cause="ru-1-tavrich",
             note="Turn 1: a volley and a cheer from the Tavrichesk Grenadiers; the battalion in the middle of the French front breaks."),
    ]
    check_hex("cascade", m, units, shocks, turns)
    meta = dict(
        title="Cascade: how one broken battalion empties a line",
        header=[
            "A teaching scenario, not a battle. One French battalion in the middle of a",
            "dense line is routed on turn 1. It runs ten hexes to the rear, and it takes",
            "the high road because a router always picks the cheapest ground: straight",
            "through its own stack partner, the second rank and the reserve, all standing",
            "on the road. Each good-order battalion it passes checks morale (contagion);",
            "each that fails falls back or routs down the same road, passing others.",
            "Morale 43-54 fails more often than not: a check passes only on a d66 roll",
            "strictly above the number. Try `sauve simulate scenarios/cascade.ron --ai none`.",
            "Ground: open fields; the road forks behind the French line; woods and a farm",
            "behind the French give the fugitives somewhere to rally.",
        ],
        name="Cascade",
        description=(
            "A dense French line, with its reserve in column on the road behind it, stands four hexes from a Russian "
            "grenadier brigade. On turn 1 one battalion in the middle breaks and runs down the road, through everyone "
            "standing on it."
        ),
        turns=turns,
        seed=42,
    )
    sides = [
        dict(id="fr", name="French", rear="South", control="Player", note="routs towards the bottom edge"),
        dict(id="ru", name="Russians", rear="North", control="Ai", note="routs towards the top edge"),
    ]
    notes = {
        1: "hamlet behind the Russians",
        2: "a low fold (slope hexsides on its south face)",
        3: "the Russian line",
        7: "the French front rank",
        9: "the French second rank",
        11: "the reserve, in column on the road",
        12: "the road forks",
        15: "woods on both wings",
        17: "a farm (village and gardens)",
    }
    map_lines = hex_map_lines(m, notes, LEGEND_NOTE)
    text = scenario_text(meta, sides, map_lines, groups, shocks, unit_line_hex)
    return "cascade.ron", text, lambda: show(m, units, {"fr": "FKA", "ru": "PCB"})
# ---------------------------------------------------------------------------
# Free-space tables (Belle Alliance).
# ---------------------------------------------------------------------------


def sq_disk(m, cx, cy, radius, ch, over="."):
    for r in range(m.h):
        for c in range(m.w):
            if (c - cx) ** 2 + (r - cy) ** 2 <= radius * radius + 0.5:
                m.set(c, r, ch, over)


def sq_path(m, pts, ch, over="."):
    """Cells along straight segments between cell waypoints (4-connected)."""
    out = []
    for (c0, r0), (c1, r1) in zip(pts, pts[1:]):
        n = max(abs(c1 - c0), abs(r1 - r0))
        prev = None
        for i in range(n + 1):
            c = round(c0 + (c1 - c0) * i / n) if n else c0
            r = round(r0 + (r1 - r0) * i / n) if n else r0
            if prev and prev[0] != c and prev[1] != r:
                out.append((c, prev[1]))  # keep the line 4-connected
            out.append((c, r))
            prev = (c, r)
    for c, r in out:
        m.set(c, r, ch, over)
    return out


def footprint(u, base=None):
    """Approximate axis-aligned footprint (w along the front, d in depth), cm,
    as drawn with the default base sizes; used only to keep units apart."""
    f = u.size
    form = u.opt.get("formation", "Line")
    if u.arm == "Infantry":
        if form == "Column":
            w, d = 8.0, 2.0 * math.ceil(f / 4)
        elif form == "Square":
            w = d = 2.0 * math.ceil(f / 8) + 4
        else:
            w, d = 2.0 * math.ceil(f / 2), 4.0
    elif u.arm == "Cavalry":
        if form == "Column":
            w, d = 5.0, 5.0 * math.ceil(f / 2)
        else:
            w, d = 2.5 * f, 5.0
    else:
        w, d = 8.0 * f, 8.0 if u.opt.get("limbered") else 4.0
    facing = u.opt.get("facing", 0.0) % 180
    return (d, w) if 45 <= facing < 135 else (w, d)


def check_footprints(name, units, w_cm, h_cm, margin=3.0):
    bad = []
    for a in units:
        aw, ad = footprint(a)
        if not (aw / 2 <= a.where[0] <= w_cm - aw / 2 and ad / 2 <= a.where[1] <= h_cm - ad / 2):
            bad.append(f"{a.id} hangs over the table edge")
        for b in units:
            if a.id < b.id:
                bw, bd = footprint(b)
                dx = abs(a.where[0] - b.where[0])
                dy = abs(a.where[1] - b.where[1])
                if dx < (aw + bw) / 2 + margin and dy < (ad + bd) / 2 + margin:
                    bad.append(f"{a.id} and {b.id} overlap")
    assert not bad, f"{name}: " + "; ".join(bad)


FS_LEGEND_NOTE = [
    "Default legend: . clear  w woods  t town  v village  g gardens",
    "                m marsh  ~ river  = bridge  r road",
    "Square cells, cell_cm on a side: 36 x 18 cells make a 360 x 180 cm table.",
    "Row 0 is the far (top, y = 0) edge; x runs left to right.",
]


def plancenoit():
    m = HexMap(36, 18)
    # Plancenoit: church and houses around the churchyard, gardens and
    # hedged orchards round the edge.
    for c, r in [(15, 7), (16, 7), (17, 7), (15, 8), (16, 8), (17, 8), (16, 9), (17, 9), (15, 10), (16, 10)]:
        m.set(c, r, "t")
    m.cells_of([(14, 6), (15, 6), (18, 7), (18, 8), (14, 9), (18, 9), (14, 11), (15, 11), (17, 10), (14, 8)], "g")
    m.cells_of([(16, 6), (17, 6), (14, 7), (14, 10), (18, 10), (16, 11)], "v")
    # The Lasne, a brook in a wet bottom east of the village.
    brook = [(27, 0), (27, 1), (26, 2), (26, 3), (26, 4), (27, 5), (27, 6), (27, 7), (27, 8), (28, 9), (28, 10),
             (28, 11), (27, 12), (27, 13), (28, 14), (28, 15), (29, 16), (29, 17)]
    m.cells_of(brook, "~", over=None)
    for c, r in brook:
        if r in (2, 3, 12, 13, 14):
            m.set(c + 1, r, "m")
    # The Bois de Paris to the north-east, the Virère wood to the south-east,
    # a copse on the Maransart side.
    sq_disk(m, 32, 3, 3, "w")
    sq_disk(m, 33, 13, 3, "w")
    sq_disk(m, 4, 16, 1, "w")
    # Roads: west to La Belle Alliance, east to Lasne over the brook, south
    # to Maransart, and the hollow lane north to Frischermont.
    sq_path(m, [(0, 4), (10, 5), (15, 7)], "r")
    sq_path(m, [(18, 8), (35, 8)], "r", over=".~m")
    sq_path(m, [(16, 11), (16, 17)], "r")
    sq_path(m, [(17, 6), (21, 0)], "r")
    for c, r in brook:
        if r == 8:
            m.set(c, r, "=")
    m.set(27, 8, "=")
    return m


def plancenoit_units():
    U = Unit
    F, P = "fr", "pr"
    E, Wf = 90.0, 270.0
    young_guard = [
        U("yg-1-1tir", F, "Infantry", (192.0, 42.0), 1, 30, "1/1er Tirailleurs de la Garde", facing=E),
        U("yg-1-1volt", F, "Infantry", (192.0, 80.0), 1, 30, "1/1er Voltigeurs de la Garde", facing=E),
        U("yg-1-3tir", F, "Infantry", (192.0, 118.0), 0, 30, "1/3e Tirailleurs de la Garde", facing=E),
        U("yg-1-3volt", F, "Infantry", (192.0, 156.0), 0, 30, "1/3e Voltigeurs de la Garde", facing=E),
        U("yg-2-1tir", F, "Infantry", (178.0, 62.0), 1, 28, "2/1er Tirailleurs de la Garde", facing=E),
        U("yg-2-1volt", F, "Infantry", (178.0, 100.0), 1, 28, "2/1er Voltigeurs de la Garde", facing=E),
        U("yg-bat", F, "Artillery", (168.0, 138.0), 1, 4, "Young Guard foot battery", facing=E, limbered=False),
    ]
    old_guard = [
        U("og-2-2gren", F, "Infantry", (105.0, 70.0), 5, 24, "2/2e Grenadiers à Pied", facing=E, formation="Column"),
        U("og-1-2chass", F, "Infantry", (105.0, 115.0), 4, 24, "1/2e Chasseurs à Pied", facing=E, formation="Column"),
    ]
    lobau = [
        U("vi-1-5", F, "Infantry", (130.0, 20.0), 0, 30, "1/5e Ligne (Lobau)", facing=E),
        U("vi-1-10", F, "Infantry", (165.0, 20.0), 0, 30, "1/10e Ligne", facing=E),
        U("vi-1-107", F, "Infantry", (128.0, 160.0), -1, 28, "1/107e Ligne", facing=E),
        U("vi-bat", F, "Artillery", (100.0, 35.0), 0, 3, "VI Corps 12-pdr battery", facing=E, limbered=True),
        U("fr-1lanc", F, "Cavalry", (80.0, 150.0), 1, 12, "1er Chevau-légers Lanciers (Subervie)", facing=E),
        U("fr-11chass", F, "Cavalry", (60.0, 100.0), 0, 12, "11e Chasseurs à Cheval", facing=E, formation="Column"),
    ]
    losthin = [
        U("pr-1-18", P, "Infantry", (226.0, 42.0), 0, 32, "I/18th Infantry (Losthin)", facing=Wf),
        U("pr-2-18", P, "Infantry", (226.0, 80.0), 0, 32, "II/18th Infantry", facing=Wf),
        U("pr-f-18", P, "Infantry", (250.0, 25.0), 1, 28, "F/18th Infantry", facing=Wf),
        U("pr-3sil-lw", P, "Infantry", (240.0, 62.0), -1, 32, "I/3rd Silesian Landwehr", facing=Wf),
    ]
    hiller = [
        U("pr-1-15", P, "Infantry", (226.0, 118.0), 1, 32, "I/15th Infantry (Hiller)", facing=Wf),
        U("pr-2-15", P, "Infantry", (226.0, 156.0), 1, 32, "II/15th Infantry", facing=Wf),
        U("pr-1sil-lw", P, "Infantry", (240.0, 104.0), -1, 32, "I/1st Silesian Landwehr", facing=Wf),
        U("pr-2sil-lw", P, "Infantry", (240.0, 142.0), -2, 32, "II/1st Silesian Landwehr", facing=Wf),
    ]
    ryssel = [
        U("pr-1-11", P, "Infantry", (305.0, 90.0), 0, 30, "I/11th Infantry (Ryssel)", facing=Wf, formation="Column"),
        U("pr-1pom-lw", P, "Infantry", (305.0, 120.0), -1, 30, "I/1st Pomeranian Landwehr", facing=Wf, formation="Column"),
        U("pr-2sil-huss", P, "Cavalry", (305.0, 152.0), 1, 12, "2nd Silesian Hussars", facing=Wf, formation="Column"),
        U("pr-wpr-uhl", P, "Cavalry", (285.0, 48.0), 0, 12, "West Prussian Uhlans", facing=Wf, formation="Column"),
        U("pr-bat-13", P, "Artillery", (266.0, 85.0), 0, 4, "12-pdr Battery No. 13", facing=Wf, limbered=False),
        U("pr-bat-14", P, "Artillery", (272.0, 160.0), 0, 3, "Foot Battery No. 14", facing=Wf, limbered=False),
    ]
    groups = [
        ("=== French (rear: the west edge, towards La Belle Alliance) ===\nDuhesme's Young Guard in and around the village, lines facing east", young_guard),
        ("two Old Guard battalions, sent in to clear the village at the charge", old_guard),
        ("Lobau's VI Corps on the flanks, and Subervie's and Domon's horse", lobau),
        ("=== Prussians of Bülow's IV Corps (rear: the east edge, the Bois de Paris) ===\nLosthin's 15th Brigade, north of the Lasne road", losthin),
        ("Hiller's 16th Brigade, south of the road", hiller),
        ("Ryssel's 14th Brigade coming up from the brook, the corps cavalry and guns", ryssel),
    ]
    units = [u for _, g in groups for u in g]
    return groups, units


def build_plancenoit():
    m = plancenoit()
    groups, units = plancenoit_units()
    turns = 10
    shocks = [
        dict(turn=1, unit="yg-1-1volt", to="FU", cause="pr-2-18",
             note="Turn 1: the 18th's volley at thirty paces; the Young Guard voltigeurs by the churchyard break."),
        dict(turn=2, unit="pr-2-18", to="FU", cause="yg-1-1tir",
             note="Turn 2: the Young Guard tirailleurs retake the churchyard; the II/18th breaks back into its Landwehr."),
        dict(turn=3, unit="pr-1sil-lw", to="FU", cause="og-1-2chass",
             note="Turn 3: the Old Guard chasseurs come through the village with the bayonet; the Landwehr before them flees."),
    ]
    check_table("plancenoit", 360, 180, 10.0, m, units, shocks, turns)
    check_footprints("plancenoit", units, 360, 180)
    meta = dict(
        title="Plancenoit, 18 June 1815: the village fight behind the French right",
        header=[
            "A Belle Alliance (free-space) table, 360 x 180 cm; north at the top.",
            "Positions are the centres of units in cm from the top-left corner; facing is",
            "degrees clockwise from north, so 90 faces east and 270 west.",
            "Ground: Plancenoit (town cells round the church, village and gardens on its",
            "edge) stands in the middle; the Lasne brook (river, bridged on the Lasne road)",
            "runs down the east side in a wet bottom; the Bois de Paris (north-east) and",
            "the Virère wood (south-east) screen Bülow's approach.",
        ],
        name="Plancenoit 1815",
        description=(
            "Evening of 18 June 1815: while the Guard attacks at Mont-Saint-Jean, Bülow's Prussians storm Plancenoit "
            "behind the French right. Napoleon throws in the Young Guard, then two Old Guard battalions, to hold the "
            "village that guards his line of retreat."
        ),
        mode="FreeSpace",
        turns=turns,
        seed=18061815,
    )
    sides = [
        dict(id="fr", name="French", rear="West", control="Player", note="La Belle Alliance and the Brussels road lie west"),
        dict(id="pr", name="Prussians", rear="East", control="Ai", note="Bülow came out of the Bois de Paris, east"),
    ]
    notes = {
        0: "Frischermont lane leaves the top edge",
        3: "Bois de Paris (north-east)",
        4: "road from La Belle Alliance",
        7: "Plancenoit: church and houses (t), edges (v, g)",
        8: "Lasne road and its bridge",
        13: "Virère wood; marsh in the brook bottom",
        15: "copse towards Maransart",
        17: "Maransart road leaves the bottom edge",
    }
    map_lines = table_map_lines(m, 10.0, notes, FS_LEGEND_NOTE)
    staff = [
        ("fr", (160.0, 90.0), "Duhesme"),
        ("fr", (145.0, 42.0), "Lobau"),
        ("pr", (290.0, 72.0), "Bülow"),
        ("pr", (256.0, 124.0), "Hiller"),
    ]
    text = scenario_text(meta, sides, map_lines, groups, shocks, unit_line_table, staff=staff)
    return "plancenoit-1815.ron", text, lambda: show_table(m, units, 10.0)


def show_table(m, units, cell):
    grid = [list(row) for row in m.rows()]
    for u in units:
        c, r = int(u.where[0] // cell), int(u.where[1] // cell)
        c, r = min(c, m.w - 1), min(r, m.h - 1)
        grid[r][c] = {"Infantry": "I", "Cavalry": "C", "Artillery": "A"}[u.arm] if u.side in ("fr",) else {"Infantry": "P", "Cavalry": "K", "Artillery": "B"}[u.arm]
    for r, row in enumerate(grid):
        print(f"{r:3} " + "".join(row))


def ligny():
    m = HexMap(36, 18)
    # The Ligny brook, west to east across the table, with a wet margin.
    brook = sq_path(m, [(0, 8), (6, 9), (12, 9), (17, 10), (24, 10), (30, 9), (35, 9)], "~", over=None)
    for c, r in brook:
        if c % 4 in (1, 2):
            m.set(c, r + 1, "m")
    # Saint-Amand (west), Saint-Amand-la-Haye (north-west), Ligny astride
    # the brook (east), Brye on the ridge behind.
    for c, r in [(4, 6), (5, 6), (6, 6), (5, 7), (6, 7), (4, 10), (5, 10), (6, 10), (5, 11)]:
        m.set(c, r, "v", over=".m")
    m.cells_of([(3, 6), (7, 7), (4, 11), (7, 10)], "g")
    m.cells_of([(7, 3), (8, 3), (7, 4)], "v")
    m.cells_of([(20, 8), (21, 8), (22, 8), (23, 8), (21, 9), (22, 9), (24, 9)], "t", over=".m")
    m.cells_of([(20, 11), (21, 11), (22, 11), (23, 12), (21, 12)], "v", over=".m")
    m.cells_of([(19, 8), (25, 8), (19, 11), (24, 11), (22, 12)], "g", over=".m")
    m.cells_of([(15, 1), (16, 1), (15, 2)], "v")
    # Woods: small stands south of the brook and by Brye.
    sq_disk(m, 11, 15, 1, "w")
    sq_disk(m, 31, 15, 2, "w")
    sq_disk(m, 29, 2, 1, "w")
    # Roads: Fleurus (south) to Ligny and on to Brye; Saint-Amand to Brye.
    sq_path(m, [(22, 17), (22, 12)], "r", over=".mgv")
    sq_path(m, [(22, 9), (22, 5), (16, 2)], "r", over=".mgtv")
    sq_path(m, [(5, 17), (5, 12)], "r")
    sq_path(m, [(6, 8), (8, 5), (15, 2)], "r", over=".mg")
    on = set(brook)
    for c, r in [(22, 10), (5, 9), (6, 9)]:
        if (c, r) in on:
            m.set(c, r, "=")
    return m


def ligny_units():
    U = Unit
    F, P = "fr", "pr"
    N, S = 0.0, 180.0
    vandamme = [
        U("fr-1-15l", F, "Infantry", (40.0, 125.0), 1, 32, "1/15e Léger (Lefol)", facing=N),
        U("fr-1-23", F, "Infantry", (78.0, 128.0), 0, 32, "1/23e Ligne", facing=N),
        U("fr-1-37", F, "Infantry", (116.0, 125.0), 0, 30, "1/37e Ligne", facing=N),
        U("fr-1-64", F, "Infantry", (60.0, 150.0), 0, 30, "1/64e Ligne", facing=N, formation="Column"),
        U("fr-1-12l", F, "Infantry", (96.0, 152.0), 1, 30, "1/12e Léger (Berthezène)", facing=N, formation="Column"),
        U("fr-bat-iii", F, "Artillery", (150.0, 140.0), 0, 4, "III Corps foot battery", facing=N),
    ]
    gerard = [
        U("fr-1-30", F, "Infantry", (190.0, 128.0), 0, 32, "1/30e Ligne (Pécheux)", facing=N),
        U("fr-1-96", F, "Infantry", (228.0, 140.0), 0, 32, "1/96e Ligne", facing=N),
        U("fr-1-6l", F, "Infantry", (266.0, 128.0), 1, 30, "1/6e Léger", facing=N),
        U("fr-1-59", F, "Infantry", (200.0, 152.0), -1, 30, "1/59e Ligne (Vichery)", facing=N, formation="Column"),
        U("fr-1-76", F, "Infantry", (250.0, 168.0), -1, 30, "1/76e Ligne", facing=N, formation="Column"),
        U("gd-bat-12", F, "Artillery", (160.0, 168.0), 2, 4, "Guard 12-pdr battery", facing=N, limbered=True),
        U("fr-6huss", F, "Cavalry", (290.0, 165.0), 1, 12, "6e Hussards (Maurin)", facing=N),
        U("fr-5cuir", F, "Cavalry", (330.0, 120.0), 2, 12, "5e Cuirassiers (Milhaud)", facing=N),
    ]
    st_amand = [
        U("pr-1-12", P, "Infantry", (45.0, 70.0), 0, 32, "I/12th Infantry (Steinmetz)", facing=S),
        U("pr-2-12", P, "Infantry", (80.0, 70.0), 0, 32, "II/12th Infantry", facing=S),
        U("pr-1-24", P, "Infantry", (118.0, 78.0), 1, 32, "I/24th Infantry", facing=S),
        U("pr-1wf-lw", P, "Infantry", (60.0, 40.0), -2, 32, "I/1st Westphalian Landwehr", facing=S),
        U("pr-1-19", P, "Infantry", (95.0, 32.0), 0, 30, "I/19th Infantry (la Haye)", facing=S),
    ]
    ligny_pr = [
        U("pr-1-7", P, "Infantry", (205.0, 75.0), 1, 32, "I/7th Infantry (Jagow)", facing=S),
        U("pr-2-7", P, "Infantry", (240.0, 75.0), 1, 32, "II/7th Infantry", facing=S),
        U("pr-1-29", P, "Infantry", (222.0, 112.0), 0, 30, "I/29th Infantry", facing=S),
        U("pr-3wf-lw", P, "Infantry", (275.0, 70.0), -1, 32, "I/3rd Westphalian Landwehr", facing=S),
        U("pr-2-29", P, "Infantry", (225.0, 45.0), 0, 30, "II/29th Infantry", facing=S, formation="Column"),
    ]
    reserve = [
        U("pr-bat-6", P, "Artillery", (160.0, 55.0), 0, 4, "12-pdr Battery No. 6", facing=S),
        U("pr-bat-3", P, "Artillery", (152.0, 80.0), 0, 3, "Foot Battery No. 3", facing=S),
        U("pr-6uhl", P, "Cavalry", (300.0, 40.0), 1, 12, "6th Uhlans (Lützow)", facing=S),
        U("pr-brand-drag", P, "Cavalry", (130.0, 30.0), 1, 12, "Brandenburg Dragoons", facing=S),
    ]
    groups = [
        ("=== French (rear: the south edge, towards Fleurus) ===\nVandamme's III Corps against Saint-Amand, lines facing north", vandamme),
        ("Gérard's IV Corps against Ligny, with the Guard's heavy guns and the cavalry of the right", gerard),
        ("=== Prussians (rear: the north edge, Brye and Sombreffe) ===\nSteinmetz's brigade in Saint-Amand, and la Haye behind it", st_amand),
        ("Jagow's brigade holding Ligny on both banks", ligny_pr),
        ("guns on the slope below Brye, and the cavalry", reserve),
    ]
    units = [u for _, g in groups for u in g]
    return groups, units


def build_ligny():
    m = ligny()
    groups, units = ligny_units()
    turns = 10
    shocks = [
        dict(turn=1, unit="pr-1-29", to="FU", cause="fr-1-96",
             note="Turn 1: the 96e reaches the houses south of the brook; the 29th's battalion there bolts for the bridge."),
        dict(turn=1, unit="fr-1-30", to="FU", cause="pr-1-7",
             note="Turn 1: Jagow's counter-attack throws the 30e out of the Ligny houses, back onto Vichery's column."),
        dict(turn=2, unit="fr-1-23", to="FU", cause="pr-2-12",
             note="Turn 2: the 23e, caught in the hedges before Saint-Amand, breaks under close fire."),
    ]
    check_table("ligny", 360, 180, 10.0, m, units, shocks, turns)
    check_footprints("ligny", units, 360, 180)
    meta = dict(
        title="Ligny, 16 June 1815: the villages on the brook",
        header=[
            "A Belle Alliance (free-space) table, 360 x 180 cm; north at the top.",
            "Positions are unit centres in cm from the top-left corner; facing 0 is north",
            "(the Prussians' side), 180 south.",
            "Ground: the Ligny brook (river cells, wet margins) crosses the table from west",
            "to east, bridged at Saint-Amand and in Ligny. Saint-Amand and Ligny (town cells",
            "round the château and church, village houses south of the brook) hold the",
            "Prussian front; Saint-Amand-la-Haye and Brye stand on the slope behind.",
        ],
        name="Ligny 1815",
        description=(
            "Afternoon of 16 June 1815: Napoleon attacks Blücher along the Ligny brook. Vandamme's and Gérard's corps "
            "fight house by house for Saint-Amand and Ligny, and both armies feed battalion after battalion into the "
            "villages."
        ),
        mode="FreeSpace",
        turns=turns,
        seed=16061815,
    )
    sides = [
        dict(id="pr", name="Prussians", rear="North", control="Ai", note="Brye and Sombreffe lie north"),
        dict(id="fr", name="French", rear="South", control="Player", note="Fleurus lies south"),
    ]
    notes = {
        1: "Brye",
        3: "Saint-Amand-la-Haye",
        6: "Saint-Amand (north bank)",
        8: "Ligny: château and church (t)",
        9: "the Ligny brook, bridged at Saint-Amand and Ligny",
        11: "Ligny south of the brook; southern Saint-Amand",
        15: "woods south of the brook",
        17: "Fleurus roads leave the bottom edge",
    }
    map_lines = table_map_lines(m, 10.0, notes, FS_LEGEND_NOTE)
    staff = [
        ("fr", (78.0, 141.0), "Vandamme"),
        ("fr", (228.0, 156.0), "Gérard"),
        ("pr", (80.0, 55.0), "Zieten"),
        ("pr", (185.0, 30.0), "Blücher"),
    ]
    text = scenario_text(meta, sides, map_lines, groups, shocks, unit_line_table, staff=staff)
    return "ligny-1815.ron", text, lambda: show_table(m, units, 10.0)


ALL = [build_grossbeeren, build_hagelberg, build_dennewitz, build_cascade, build_plancenoit, build_ligny]



def main():
    showing = "--show" in sys.argv
    os.makedirs(OUT, exist_ok=True)
    for build in ALL:
        fname, text, preview = build()
        with open(os.path.join(OUT, fname), "w", encoding="utf-8") as f:
            f.write(text)
        print(f"wrote scenarios/{fname}")
        if showing and preview:
            preview()


if __name__ == "__main__":
    main()
