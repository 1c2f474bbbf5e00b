"""What a sheet is worth on Island Two, the race to 10 victory points: its VP with the awards
as they would move, progress toward sites, jokers and the awards (MEDIUM), and for HARD
the other players' threat and the contests for the awards held.
"""

from catan.game import popcount
from catan.maps import AWARD_VP, GREY_ROAD, KNIGHT, START, WIN_VP
from catan.players import EASY, MEDIUM

# Island Two progress weights: open site VP, unused jokers, knights toward an unclaimed /
# a held Largest Army, roads toward the grey road / any road while another holds it,
# a build that would win next turn.
W2 = [0.3, 0.5, 0.6, 0.3, 0.45, 0.1, 1.0]
_GREY_PATH = 0x0D  # R0, R2, R3: the roads before the grey road R5


def _two_setup(ctx):
    # What ``_value_two`` needs, once a decision: the knights' mask, the other players, every
    # player's road length, knights and VP of buildings now.
    g = ctx.game
    isl = ctx.isl
    ctx.km = 0
    for k in isl.knights():
        ctx.km |= 1 << (k - isl.n_roads)
    n = g.players
    ctx.opp = [o for o in range(n) if o != ctx.p]
    ctx.opp_len = [g.road_length(o) for o in range(n)]
    ctx.opp_kn = [g.knights(o) for o in range(n)]
    ctx.opp_base = [0] * n
    for o in range(n):
        v = 0
        for b in range(len(isl.names)):
            if g.builds[o] >> b & 1:
                v += isl.values[b]
        ctx.opp_base[o] = v


def _value_two(ctx, items, used):
    # ``_Context.value`` on Island Two: the VP after building ``items`` now (jokers ``used``
    # after this turn), with the awards as they would move, and (MEDIUM, HARD) progress.
    isl = ctx.isl
    g = ctx.game
    nr = isl.n_roads
    p = ctx.p
    roads, builds = ctx.roads, ctx.builds
    for it in items:
        if it < nr:
            roads |= 1 << it
        else:
            builds |= 1 << (it - nr)
    longest, largest = g.longest, g.largest
    if roads != ctx.roads and longest != p:
        if longest < 0:
            if roads >> GREY_ROAD & 1:
                longest = p
        elif isl.road_length(roads) > ctx.opp_len[longest]:
            longest = p
    kn = popcount(builds & ctx.km)
    if kn != ctx.opp_kn[p] and largest != p:
        if largest < 0:
            if kn >= 3:
                largest = p
        elif kn > ctx.opp_kn[largest]:
            largest = p
    vp = 0
    sites = 0.0
    best_site = 0
    for b in range(len(isl.names)):
        if builds >> b & 1:
            vp += isl.values[b]
        elif isl.kinds[b] != KNIGHT:
            r = isl.site_road[b]
            if r == START or roads >> r & 1:
                sites += isl.values[b]
                if isl.values[b] > best_site:
                    best_site = isl.values[b]
    if longest == p:
        vp += AWARD_VP
    if largest == p:
        vp += AWARD_VP
    if vp >= WIN_VP:
        return 1000.0 - len(items) * 0.01
    if ctx.level == EASY:  # points, and roads that open sites
        return vp + 0.1 * sites + 0.05 * popcount(roads)
    # A build that would win next turn is worth most near the end.
    finish = best_site >= WIN_VP - vp
    if not finish and largest != p and WIN_VP - vp <= AWARD_VP:
        finish = kn + 1 >= 3 if largest < 0 else kn + 1 > ctx.opp_kn[largest]
    # Progress: open sites, jokers in hand, knights and roads toward the awards.
    jok = 0
    for j in range(len(isl.jokers)):
        need = isl.jokers[j][1]
        if builds & need == need and not used >> j & 1:
            jok += 1
    prog = W2[0] * sites + W2[1] * jok + (W2[6] if finish else 0)
    if largest < 0:
        prog += W2[2] * min(kn, 2)
    elif largest != p:
        prog += W2[3] * kn
    if longest < 0:
        prog += W2[4] * popcount(roads & _GREY_PATH)
    elif longest != p:
        prog += W2[5] * popcount(roads)
    if ctx.level == MEDIUM:
        return vp + prog
    # HARD: the race. Others' victory points after the awards move, the leader's
    # threat weighed by how close they are to 10.
    worst = 0.0
    for o in ctx.opp:
        v = ctx.opp_base[o]
        if longest == o:
            v += AWARD_VP
        if largest == o:
            v += AWARD_VP
        w = v * (0.25 if v < 6 else 0.5)
        if w > worst:
            worst = w
    if worst >= 3.5:  # someone may win soon: points now beat progress
        prog *= 0.5
    # Contests: stay ahead of the nearest challenger for the awards held.
    if largest == p:
        for o in ctx.opp:
            if ctx.opp_kn[o] >= kn:
                prog -= 0.4
    if longest == p:
        ln = isl.road_length(roads)
        for o in ctx.opp:
            if ctx.opp_len[o] >= ln:
                prog -= 0.3
    return vp + prog - worst
