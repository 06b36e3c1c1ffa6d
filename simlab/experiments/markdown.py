"""``report.md``: one page tying the tables and figures together in plain words."""

from __future__ import annotations

import json
import math
from typing import Any, Iterable

import pandas as pd

from simlab.errors import SimlabError
from simlab.experiments.config import Component, ExperimentConfig
from simlab.experiments.history import config_changes
from simlab.experiments.plots import effort_subject, policy_names
from simlab.experiments.stats import wilson_interval
from simlab.experiments.tables import critical_table, players
from simlab.games import make_game
from simlab.policies.catalog import policy_class

MAX_LISTED_COMPARISONS = 12


def percent(value: float, digits: int = 1) -> str:
    return "n/a" if value is None or (isinstance(value, float) and math.isnan(value)) else f"{100 * value:.{digits}f}%"


def interval(low: float, high: float) -> str:
    if any(isinstance(v, float) and math.isnan(v) for v in (low, high)):
        return "n/a"
    return f"{100 * low:.1f}–{100 * high:.1f}%"


def markdown_table(headers: list[str], rows: Iterable[list[Any]]) -> str:
    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def report_markdown(config: ExperimentConfig, tables: dict[str, pd.DataFrame], figures: list[str],
                    manifest: dict[str, Any]) -> str:
    """The whole report as Markdown."""
    sections = [
        _overview(config, tables["deals"], tables["summary"]),
        _win_rates(tables["summary"], figures),
        _brackets(tables.get("brackets"), tables["summary"], config),
        _claims(tables["claims"], config),
        _comparisons(tables["comparisons"], config.report.comparisons),
        _critical_decisions(tables["deals"], figures),
        _difficulty(tables.get("difficulty"), config, figures),
        _skill_curve(tables.get("skill_curve"), figures),
        _other_figures(figures, effort_subject(players(tables["deals"]), policy_names(config))),  # as drawn
        _files(),
        "## Resolved config\n\n```yaml\n" + config.to_yaml() + "```\n",
        _configs_seen(manifest.get("configs", [])),
        _manifest(manifest),
    ]
    return "\n".join(section for section in sections if section)


def _overview(config: ExperimentConfig, deals: pd.DataFrame, summary: pd.DataFrame) -> str:
    spec = config.deals_spec
    numbers = (f"deals {spec['start']}–{spec['start'] + spec['count'] - 1}" if isinstance(spec, dict)
               else f"{len(config.deals)} listed deals")
    lines = [f"# Experiment: {config.name}\n"]
    if config.description:
        lines.append(config.description.strip() + "\n")
    lines.append(f"{len(config.games)} game(s) × {len(config.policies)} policy(ies) × "
                 f"{len(config.deals)} deals ({numbers}), root seed {config.root_seed}. "
                 "Every policy plays the same deals, so policies are compared deal by deal.\n")
    expected = len(config.games) * len(config.policies) * len(config.deals)
    if len(deals) < expected:
        lines.append(f"**Incomplete:** {len(deals)} of {expected} deals are stored. Run the same "
                     "config again to play the rest; nothing finished is replayed.\n")
    failed = int(summary["failed"].sum()) if len(summary) else 0
    if failed:
        lines.append(f"**{failed} deal(s) failed** (the policy raised). They are left out of every "
                     "estimate; see `errors.txt` and the `error` column of `deals.csv`. A rerun "
                     "retries them.\n")
    return "\n".join(lines)


def _win_rates(summary: pd.DataFrame, figures: list[str]) -> str:
    # Columns named and counted as in summary.csv: "deals" includes failed ones, "played" not.
    summary = summary[summary["information"] != "relaxation"]  # bounds, in the brackets section
    rows = [[r.game, r.policy, r.information, r.deals, r.failed, r.played, r.won, r.unknown,
             percent(r.win_rate), interval(r.wilson_low, r.wilson_high),
             estimate_range(r.win_rate, r.range_low, r.range_high),
             f"{r.mean_moves:.0f}" if not math.isnan(r.mean_moves) else "n/a"]
            for r in summary.itertuples()]
    text = ["## Win rates\n",
            markdown_table(["game", "policy", "sees", "deals", "failed", "played", "won", "unknown",
                            "win rate", "Wilson 95%", "win rate (95% range, unknowns lost … won)",
                            "mean moves"], rows), "",
            "`deals` counts every deal of the cell, `failed` those whose policy raised, died or ran "
            "out of time, `played` the rest; win rates are over `played` (as in `summary.csv`).\n"]
    text += [_best_policy_sentence(game, group) for game, group in summary.groupby("game", sort=False)]
    text.append("\n\"sees\": `open`, the game hides nothing; `thoughtful`, the policy sees every card, "
                "including those a player cannot see (the solver: an upper bound on any real player); `fair`, "
                "the policy sees only what a player sees.\n")
    text.append("The range follows Blake and Gent: the Wilson lower bound with every unknown "
                "counted as a loss, to the upper bound with every unknown counted as a win. It is not "
                f"symmetric about the win rate (0 wins in 100 deals: {estimate_range(0.0, *wilson_interval(0, 100))}"
                "), so it is given as its two ends; `summary.csv` also gives Blake and Gent's centre and half "
                "width.\n")
    if "win_rates" in figures:
        text.append("![Win rate by game and policy](win_rates.png)\n")
    return "\n".join(text)


def _brackets(brackets: pd.DataFrame | None, summary: pd.DataFrame, config: ExperimentConfig) -> str:
    """Perfect play bracketed where cards are hidden or shuffled (``tables.brackets_table``);
    a vacuous one (its upper end at 100%) is called so, with what would give a real bound."""
    bounds = summary[summary["information"] == "relaxation"]
    if (brackets is None or brackets.empty) and bounds.empty:
        return ""
    text = ["## Perfect play bracketed\n",
            "Where a player cannot see every card or future shuffle, perfect play is a bracket: the best "
            "`fair` player's win rate (it never peeks: a lower bound) below, and the tightest upper bound "
            "above: `thoughtful` play (the solver sees every card and shuffle; unknowns counted as wins) or "
            "an information relaxation (`relaxation`: the perfect-information value with a penalty for "
            "using what a player could not know, whose mean bounds every fair player). "
            "\"with 95%\" runs from the lower figure's Wilson lower end to the bound's upper end.\n"]
    if brackets is not None and not brackets.empty:
        rows = [[r.game, f"{r.lower_policy} {percent(r.lower)} (≥ {percent(r.lower_low)})",
                 f"{r.upper_policy} [{r.upper_information}] {percent(r.upper)} (≤ {percent(r.upper_high)})"
                 + (" **vacuous**" if r.vacuous else ""),
                 _points(r.width), _points(r.width_95), r.played] for r in brackets.itertuples()]
        text.append(markdown_table(["game", "fair (lower)", "upper bound", "width", "width with 95%",
                                    "deals"], rows) + "\n")
        text += [_vacuous(r, config) for r in brackets.itertuples() if r.vacuous]
    if not bounds.empty:
        rows = [[r.game, r.policy, r.played, percent(r.bound), interval(r.bound_low, r.bound_high),
                 f"{r.mean_cpu_seconds:.2f}"] for r in bounds.itertuples()]
        text.append("Relaxation bounds (mean of the per-deal penalised values, Student-t 95%):\n")
        text.append(markdown_table(["game", "policy", "deals", "bound", "95%", "CPU-s per deal"], rows) + "\n")
    return "\n".join(text)


def _vacuous(bracket: Any, config: ExperimentConfig) -> str:
    """Why a bracket whose upper end is 100% says nothing above its lower end, and what
    would give a real upper bound there."""
    text = (f"**{bracket.game}: the upper bound is vacuous.** {bracket.upper_policy} "
            f"[{bracket.upper_information}] reaches {percent(bracket.upper_high)}: it excludes no win rate, so "
            f"the bracket says only that perfect fair play wins at least {percent(bracket.lower_low)}.")
    game = next((g for g in config.games if g.label == bracket.game), None)
    if any(policy.name == "relaxation_bound" for policy in config.policies):
        return text + " Every upper bound of this experiment, `relaxation_bound` included, reaches 100% here.\n"
    if game is not None and _shuffles(game):
        return (text + " For a real upper bound add the policy `relaxation_bound` (an information relaxation: "
                "README, \"Perfect play as a bracket\"; `experiments/la_belle_lucie.yaml` runs it).\n")
    return text + " simlab has no tighter upper bound for this game.\n"


def _shuffles(game: Component) -> bool:
    """Whether ``game`` shuffles at a redeal: where ``relaxation_bound`` gives a bound."""
    try:
        return make_game(game.name, **game.params).has_chance
    except SimlabError:
        return False


def _points(width: float) -> str:
    """A bracket's width in percentage points."""
    return "n/a" if math.isnan(width) else f"{100 * width:.1f} points"


def estimate_range(rate: float, low: float, high: float) -> str:
    """A win rate and its (asymmetric) interval: ``0.0% (0.0–3.7)`` (0 wins in 100 deals)."""
    if any(isinstance(v, float) and math.isnan(v) for v in (rate, low, high)):
        return "n/a"
    return f"{100 * rate:.1f}% ({100 * low:.1f}–{100 * high:.1f})"


def _names(policies: list[str]) -> str:
    return policies[0] if len(policies) == 1 else ", ".join(policies[:-1]) + " and " + policies[-1]


def _best_policy_sentence(game: str, group: pd.DataFrame) -> str:
    """Which policy won the most and the fewest deals, ties named as ties. Each win rate is
    a range while unknowns remain (won / played to (won + unknown) / played), and one
    policy is named only when its range lies wholly beyond every other's."""
    group = group[group["played"] > 0]
    if group.empty:
        return f"- {game}: no deal was played."
    low, high = group["won"] / group["played"], (group["won"] + group["unknown"]) / group["played"]
    if high.max() == 0:
        return f"- {game}: no policy won a deal."
    if len(group) == 1:  # nothing to rank it against
        only = group.iloc[0]
        rate = _rate_range(only["won"], only["unknown"], only["played"])
        return f"- {game}: only {only['policy']} played, winning {rate}."
    if len(group) > 1 and (group["unknown"] == 0).all() and low.nunique() == 1:
        return f"- {game}: every policy won {percent(low.max())} of its deals."
    best, worst = group[high >= low.max()], group[low <= high.min()]  # whose range reaches the end
    if len(best) == len(worst) == len(group) > 1:
        return f"- {game}: {_unranked(group, 'which policy won the most or the fewest deals')}."
    most = _ranked_end(best, "won the most deals", "tied for the most deals", "which won the most deals")
    fewest = _ranked_end(worst, "the fewest", "tied for the fewest", "which won the fewest")
    separator = "; " if "cannot be told" in most + fewest else ", "
    return f"- {game}: {most}{separator}{fewest}."


def _ranked_end(candidates: pd.DataFrame, one: str, tied: str, which: str) -> str:
    """The policy at one end of the ranking, given every policy whose range reaches that end."""
    first = candidates.iloc[0]
    if len(candidates) == 1:
        return f"{first['policy']} {one} ({_rate_range(first['won'], first['unknown'], first['played'])})"
    if not candidates["unknown"].any():
        return f"{_names(candidates['policy'].tolist())} {tied} ({percent(first['won'] / first['played'])})"
    return _unranked(candidates, which)


def _unranked(cells: pd.DataFrame, which: str) -> str:
    """Why some policies cannot be ranked yet: their win-rate ranges overlap."""
    ranges = ", ".join(f"{r.policy} {_rate_range(r.won, r.unknown, r.played)}" for r in cells.itertuples())
    return (f"{which} cannot be told yet between {_names(cells['policy'].tolist())}: their win-rate ranges "
            f"overlap ({ranges}) while {int(cells['unknown'].sum())} of their results are unknown")


def _rate_range(won: int, unknown: int, played: int) -> str:
    """A win rate, or its range from every unknown lost to every unknown won."""
    if not unknown:
        return percent(won / played)
    return f"{interval(won / played, (won + unknown) / played)} with {unknown} unknown"


def _claims(claims: pd.DataFrame, config: ExperimentConfig) -> str:
    if claims.empty:
        return ""
    lines = ["## Claims\n", "Each quoted figure is tested against the estimate with an exact "
             "binomial test (two-sided, 95%). Unknown results may resolve either way, so p is given "
             "as the range over every way they can resolve; the claim is consistent when the "
             "largest p is at least 0.05.\n"]
    budgets = {p.label: phrase for p in config.policies if (phrase := budget_phrase(p))}
    for c in claims.itertuples():
        figure = f"{100 * c.claimed:.6g}%"
        if c.tolerance:
            figure = interval(c.claimed - c.tolerance, c.claimed + c.tolerance)
        said = (f"{c.source}: “{c.text}”, tested as {figure} for {c.policy} on {c.game}" if c.text
                else f"{c.source}: {c.policy} wins {figure} of {c.game} deals")
        if c.verdict == "no data":
            lines.append(f"- **no data**: {said}.")
            continue
        budget = f", {budgets[c.policy]}" if c.policy in budgets else ""
        lines.append(f"- **{c.verdict}**: {said}. We measured {percent(c.estimate)} (range "
                     f"{interval(c.range_low, c.range_high)}, {c.played} deals played, {c.unknown} unknown"
                     f"{budget}), {_p_range(c)}." + (f" Note: {c.note}." if c.note else ""))
    return "\n".join(lines) + "\n"


def budget_phrase(policy: Component) -> str:
    """What searched for ``policy`` and its budget, as its class words it (``Policy.budget_phrase``:
    the solver's nodes per deal, lookahead's positions per move); a policy without one but
    with a ``budget`` parameter by its name; empty for a policy without a budget."""
    try:
        phrase = policy_class(policy.name).budget_phrase
    except SimlabError:  # a user policy not imported (a rebuilt report)
        phrase = ""
    if phrase:
        try:
            return phrase.format(**policy.params)
        except (KeyError, ValueError, TypeError):  # parameters not as the phrase expects
            pass
    budget = policy.params.get("budget")
    return f"{policy.name} budget {budget:,}" if isinstance(budget, int) else ""


def _p_range(claim: Any) -> str:
    """The claim's p-value, or its range over how the unknowns resolve (the p-value is
    unimodal in the wins, so its least value is at an end: all unknowns lost or all won)."""
    if not claim.unknown:
        return f"p = {claim.p_value:.3g}"
    low = min(claim.p_unknown_lost, claim.p_unknown_won)
    return f"p = {low:.3g} to {claim.p_value:.3g} (over the ways the {claim.unknown} unknowns resolve)"


def _comparisons(comparisons: pd.DataFrame, keep: str = "all") -> str:
    """The comparisons: those between players first, then, apart and labelled, those
    with an upper bound on one side (``upper_bound``); ``keep="players"`` (the config's
    ``report.comparisons``) left the latter out of the table."""
    if comparisons.empty:
        return ""
    bounded = (comparisons["upper_bound"].fillna("") != "" if "upper_bound" in comparisons
               else pd.Series(False, index=comparisons.index))
    text = _comparison_list(comparisons, comparisons[~bounded])
    if bounded.any():
        text += ("\n### Against an upper bound\n\nA `thoughtful` cell (the solver sees hidden cards and future "
                 "shuffles) is an upper bound on every player, not a player: these rows say how far a player "
                 "is below it, not which of two players is better. Add `report: {comparisons: players}` to the "
                 "config to leave them out (Holm's adjustment then runs over the players' comparisons only).\n\n"
                 + _listed(comparisons[bounded]))
    elif keep == "players":
        text += ("\nOnly players are compared (`report: {comparisons: players}`): the upper bounds "
                 "(`thoughtful` cells) are left out.\n")
    return text


def _comparison_list(comparisons: pd.DataFrame, shown: pd.DataFrame) -> str:
    """The comparisons' header (counts over the whole table) and the list of ``shown``."""
    significant = comparisons[comparisons["significance"] == "significant"]
    paired = int(comparisons["comparison"].str.endswith("(paired)").sum())
    lines = ["## Comparisons\n",
             f"{len(comparisons)} comparisons, {paired} of them paired: two cells that played the same deal "
             "numbers share PySolFC's shuffle, so they are compared deal by deal on the deals both played "
             "(McNemar's exact test, Newcombe's paired interval); cells with no deal in common by Fisher's exact "
             "test (Newcombe's hybrid interval). The `test` column of `comparisons.csv` names each row's test. "
             "A deal counts as a success only when won. An unknown result may be a win or a loss, so a "
             "comparison with unknowns gives each figure as its range over every way they can resolve, and it "
             "is significant only when it is so for every one of them (Holm's adjustment of the whole table, "
             "applied to the largest p-values). "
             f"Significant at the 95% level: {len(significant)}"
             + (f" ({int((shown['significance'] == 'significant').sum())} of them between players)"
                if len(shown) < len(comparisons) else "") + ".\n"]
    return "\n".join(lines) + "\n" + _listed(shown)


def _listed(comparisons: pd.DataFrame) -> str:
    """The significant and the undecided ones of ``comparisons``, at most a dozen of each."""
    significant = comparisons[comparisons["significance"] == "significant"]
    undecided = comparisons[comparisons["significance"] == "undecided"]
    lines = [_comparison_line(c) for c in significant.head(MAX_LISTED_COMPARISONS).itertuples()]
    if len(significant) > MAX_LISTED_COMPARISONS:
        lines.append(f"- … and {len(significant) - MAX_LISTED_COMPARISONS} more in `comparisons.csv`.")
    if len(undecided):
        lines.append(f"\nUndecided: {len(undecided)}, not significant as the results stand but perhaps once "
                     "their unknowns are resolved (`significance` in `comparisons.csv`):\n")
        lines += [_comparison_line(c) for c in undecided.head(MAX_LISTED_COMPARISONS).itertuples()]
        if len(undecided) > MAX_LISTED_COMPARISONS:
            lines.append(f"- … and {len(undecided) - MAX_LISTED_COMPARISONS} more in `comparisons.csv`.")
    return "\n".join(lines) + "\n"


def _comparison_line(c: Any) -> str:
    """One comparison: both win rates, the difference with its interval, the test and p."""
    unknown = c.unknown_a + c.unknown_b
    rate_a = _rate_range(c.won_a, c.unknown_a, c.n_a)
    rate_b = _rate_range(c.won_b, c.unknown_b, c.n_b)
    difference = (f"{100 * c.difference:+.1f} points" if not unknown else
                  f"{100 * c.difference_min:+.1f} to {100 * c.difference_max:+.1f} points")
    test = (f"McNemar's exact test on the {c.n_a} deals both played" if c.comparison.endswith("(paired)")
            else "Fisher's exact test (no deal in common)")
    p_value = (f"adjusted p = {c.p_holm:.3g}" if not unknown else
               f"adjusted p = {c.p_holm_min:.3g} to {c.p_holm:.3g} over the ways the {unknown} unknowns resolve")
    sides = str(getattr(c, "upper_bound", "") or "")
    a = f"{c.a} [upper bound]" if "a" in sides.split() else c.a
    b = f"{c.b} [upper bound]" if "b" in sides.split() else c.b
    return (f"- {c.within}: {a} {rate_a} vs {b} {rate_b}, difference {difference} "
            f"(95% CI {100 * c.difference_low:+.1f} to {100 * c.difference_high:+.1f}), {test}, {p_value}.")


def _critical_decisions(deals: pd.DataFrame, figures: list[str]) -> str:
    """How unforgiving the won deals are, where a policy counted their critical decisions."""
    table = critical_table(deals)
    if table.empty:
        return ""
    rows = [[r.game, r.policy, r.information, r.won, r.probed, f"{r.mean_positions:.0f}",
             f"{r.mean_critical:.1f}", f"{r.median_critical:.0f}", percent(r.mean_share),
             percent(r.median_share), f"{r.undecided_deals} ({r.mean_undecided:.1f})"]
            for r in table.itertuples()]
    text = ["## Critical decisions\n",
            "Along each won deal's winning line, a position with a choice is critical when some other "
            "legal move there was proved lost by a probe of the solver (`probe_budget` positions; the "
            "probes see every card). A move left unknown is never counted as losing: a position with no "
            "lost move but some move left unknown is *undecided*. A designer's measure of how unforgiving a deal is "
            "(`critical_decisions`, `decision_positions`, `critical_share`, `critical_undecided` in "
            "`deals.csv`).\n",
            markdown_table(["game", "policy", "sees", "won", "probed", "mean positions with a choice",
                            "mean critical", "median critical", "mean share", "median share",
                            "deals with undecided (mean)"], rows), ""]
    if "critical_decisions" in figures:
        text.append("![Critical decisions](critical_decisions.png)\n")
    return "\n".join(text)


def _difficulty(table: pd.DataFrame | None, config: ExperimentConfig, figures: list[str]) -> str:
    """The ladder's difficulty table: per game, deals and share at each level."""
    if table is None or config.ladder is None:
        return ""
    ladder = config.ladder
    rows = [[r.game, r.difficulty, r.information, r.deals, percent(r.share)] for r in table.itertuples()]
    text = ["## Difficulty\n",
            f"The difficulty of a deal is the weakest player of the ladder ({', '.join(ladder.rungs)}) "
            f"that wins it; a stochastic player wins it when it wins at least one of {ladder.tries} "
            f"tries. Else `perfect play only` ({ladder.perfect} won it), `unwinnable` ({ladder.perfect} "
            "proved it lost) or `unknown` (undecided, or a player below had no result). \"sees\": what "
            "that level's player saw (the perfect player's for the last three). The `difficulty` column "
            "of `deals.csv` gives each deal's level; `difficulty.csv` this table.\n",
            markdown_table(["game", "difficulty", "sees", "deals", "share"], rows), ""]
    if ladder.unproved:
        text.insert(2, f"{ladder.perfect} does not prove its losses on {', '.join(ladder.unproved)} (a loss "
                       "there is only a game it did not win; this folder was run by an earlier simlab, which "
                       f"took such a perfect player): a deal {ladder.perfect} lost there is `unknown`, not "
                       "`unwinnable`. A new run refuses this ladder; make `ladder.perfect` the solver.\n")
    if "difficulty" in figures:
        text.append("![Difficulty of the deals by game](difficulty.png)\n")
    return "\n".join(text)


def _skill_curve(curve: pd.DataFrame | None, figures: list[str]) -> str:
    """The skill curve: each rung's win rate, weakest first, then perfect play."""
    if curve is None:
        return ""
    rows = [[r.game, r.position, r.policy, r.information, "" if pd.isna(r.budget) else f"{r.budget:,}",
             r.played, r.won, percent(r.win_rate), interval(r.wilson_low, r.wilson_high), r.won_any_try]
            for r in curve.itertuples()]
    text = ["## Skill curve\n",
            "Win rate of each player of the ladder, weakest first, then perfect play (first try of "
            "each deal, as in the win-rate table; `won in any try` counts the deals a stochastic "
            "player won in at least one of its tries). `budget`: positions searched per move where "
            "the player has one. `skill_curve.csv` holds this table with each player's place on the "
            "figure's axis.\n",
            markdown_table(["game", "rung", "player", "sees", "budget", "played", "won", "win rate",
                            "Wilson 95%", "won in any try"], rows), ""]
    if "skill_curve" in figures:
        text.append("![Skill curve: win rate by player](skill_curve.png)\n")
    return "\n".join(text)


EFFORT_CAPTIONS = {
    "Solver": "Positions (nodes) the solver searched per deal, by verdict.",
    "Lookahead": "Positions lookahead searched per deal (all its moves' searches together), by verdict; "
                 "no solver ran.",
    "Search": "Positions each searching policy searched per deal (the solver: its one search; lookahead: all "
              "its moves' searches together), by verdict.",
}


def _other_figures(figures: list[str], searched: str = "Search") -> str:
    """The other figures with their captions; ``searched``: what the effort figure shows
    (``plots.effort_subject``)."""
    captions = {
        "convergence": "The running estimate against deals played, with its 95% band: flat lines "
                       "inside narrow bands mean more deals would change little.",
        "solver_effort": EFFORT_CAPTIONS[searched],
        "cards_home_lost": "How close lost games came: cards on the foundations at the end of each "
                           "lost deal played out (a deal the solver proved lost, or gave up on, "
                           "before making a move has no end position, so it is left out).",
    }
    lines = ["## Figures\n"]
    for name, caption in captions.items():
        if name in figures:
            lines.append(f"{caption}\n\n![{name}]({name}.png)\n")
    if "solver_effort" not in figures:
        lines.append("(No policy searched positions, so there is no search-effort figure.)\n")
    return "\n".join(lines)


def _files() -> str:
    return ("## Files\n\n`deals.csv` (one row per game × policy × deal), `summary.csv`, `brackets.csv` (where "
            "cards are hidden or shuffled), `claims.csv`, "
            "`comparisons.csv`, the figures as PNG and SVG, `manifest.json`, `config.resolved.yaml` "
            "and `results.sqlite` (the database every table is rebuilt from: "
            "`simlab report FOLDER`). CPU seconds differ from run to run; every other column "
            "is reproducible.\n")


def _configs_seen(configs: list[dict[str, Any]]) -> str:
    """Every config the folder's results came from, each as its changes from the one before."""
    if not configs:
        return ""
    lines = ["## Configs this folder has seen\n",
             "Cells whose game, policy, parameters or code changed were played afresh; the others "
             "kept their deals. Each full config is in `manifest.json`.\n"]
    previous = None
    for entry in configs:
        if previous is None:
            lines.append(f"- {entry['recorded']}: the first config.")
        else:
            changes = config_changes(previous, entry["config"])
            lines.append(f"- {entry['recorded']}: " + ("; ".join(f"`{c}`" for c in changes) if changes
                                                        else "the same config, with changed code"))
        previous = entry["config"]
    return "\n".join(lines) + "\n"


def _manifest(manifest: dict[str, Any]) -> str:
    packages = ", ".join(f"{k} {v}" for k, v in manifest.get("packages", {}).items() if v)
    commit = manifest.get("git_commit") or "unknown"
    if manifest.get("git_dirty"):
        commit += " (with uncommitted changes)"
    lines = ["## Manifest\n",
             f"- simlab {manifest.get('simlab_version')}, git commit {commit}",
             f"- Python {manifest.get('python')} on {manifest.get('platform')}",
             f"- packages: {packages}",
             f"- this run: started {manifest.get('started')}, finished {manifest.get('finished')}, "
             f"played {manifest.get('deals_played_by_this_run')} deals; execution "
             f"{json.dumps(manifest.get('execution'))}",
             f"- runs that wrote to this folder: {len(manifest.get('sessions', []))} "
             "(details in `manifest.json`)"]
    return "\n".join(lines) + "\n"
