"""FairDice: the contest's committed dice at the table -- the commitment, a player's own seed, the reveal."""

from __future__ import annotations

import panel as pn
import param
from panel.custom import JSComponent

from raisus_panel.rules import RuleError

from . import _batch
from ._base import CARD_CSS, HTML, Button, ComponentBase, TextInput, esc, grey, md_esc, style, wrap

#: The seed's field takes the room its row leaves (a whole line on a phone).
_GROW = {"flex": "1 1 260px", "min-width": "0"}
#: How many hex digits of a commitment the table shows (the log and the report show it whole).
SHORT = 16


class BrowserSeed(JSComponent):
    """A random client seed made in the person's own browser (``crypto.getRandomValues``).

    The server never picks it: that is the point of a client seed. It is sent to the server once,
    when the page is drawn; nothing is mixed into the dice until the person presses the button that
    sets it (:class:`FairDice`).
    """

    seed = param.String(default="", doc="""
        32 hex digits drawn in the browser when the page is drawn ("" until then).""")

    _esm = """
    export function render({ model }) {
      if (!model.seed) {
        const bytes = new Uint8Array(16)
        crypto.getRandomValues(bytes)
        model.seed = Array.from(bytes, b => b.toString(16).padStart(2, "0")).join("")
      }
      return document.createElement("span")
    }
    """


class FairDice(ComponentBase):
    """The contest's committed dice, for everyone at the table: what is committed, and what to do.

    Everyone sees the commitment in force (the start of the seed's SHA-256, published before the
    first roll) and, once the contest ends or the GM reveals it early, that anyone can now check every
    die. Before the first roll a player mixes a client seed of their own into the dice: the field
    holds one their browser made at random (:class:`BrowserSeed`), which they may replace with words
    of their own, and **Mix in my seed** sets it (``set_client_seed``). On a served page the
    browser's seed is mixed in by itself as soon as a contest commits (unless the player set one), so
    every player's seed is their own browser's by default, never one the server picked. After the
    first roll the field shows the seed that was fixed. The GM reveals the contest's seed early
    (``reveal_dice``) or the action checks' seed (``reveal_checks``). Buttons are offered as the
    room answers ``why_not_error``; a refusal is shown and changes nothing.

    Parameters
    ----------
    actions
        The adapter commands go through; its ``contest`` is the one whose dice are shown.
    """

    def _build(self) -> None:
        actor = self.actions.session.actor
        self._player = bool(actor.player_id)
        self._auto: set[str] = set()  # commitments the browser's seed was offered to by itself
        self._status = HTML(sizing_mode="stretch_width", css_classes=["raisus-fair-status"])
        rows: list = [self._status]
        if self._player:
            self._browser = BrowserSeed(width=0, height=0, margin=0)
            self._seed = TextInput(max_length=80, sizing_mode="stretch_width",
                                              css_classes=["raisus-client-seed"])
            self._set = Button(**style("primary", outline=True))
            self._set.on_click(lambda e: self._set_seed())
            self._seed.param.watch(lambda e: self._offer_seed(), "value_input")
            self._browser.param.watch(self._on_browser_seed, "seed")
            self._help = HTML(sizing_mode="stretch_width", css_classes=["raisus-seed-help"])
            rows += [wrap(pn.Column(self._seed, styles=_GROW), self._set), self._help, self._browser]
        if actor.is_gm:
            self._reveal = Button(**style("light", outline=True))
            self._reveal.on_click(lambda e: self._run("reveal_dice"))
            self._reveal_checks = Button(**style("light", outline=True))
            self._reveal_checks.on_click(lambda e: self._run("reveal_checks"))
            rows.append(wrap(self._reveal, self._reveal_checks))
        self._card = pn.Card(*rows, self._error, self._info, collapsed=False, sizing_mode="stretch_width",
                             css_classes=["raisus-fair-dice"], stylesheets=[CARD_CSS])

    def __panel__(self):
        return self._card

    def _relabel(self) -> None:
        self._card.title = self._t("fair.title")
        if self._player:
            self._seed.name = self._t("fair.your_seed")
            self._set.name = self._t("fair.set_seed")
        if self.actions.session.actor.is_gm:
            self._reveal.name = self._t("fair.reveal_dice")
            self._reveal_checks.name = self._t("fair.reveal_checks")

    # -- state ------------------------------------------------------------------------------------
    def _commitment(self) -> dict | None:
        contest = self.contest
        return None if contest is None else contest.dice_commitment

    def _refresh(self) -> None:
        committed = self._commitment()
        if self.contest is None:
            status = self._t("fair.none")
        elif committed is None:
            status = self._t("fair.uncommitted")
        elif committed["revealed"]:
            status = self._t("fair.revealed")
        else:
            status = self._t("fair.committed", commitment=committed["commitment"][:SHORT])
        self._status.object = f"<p>{esc(status)}</p>"
        if self._player:
            self._show_own_seed(committed)
        if self.actions.session.actor.is_gm:
            self._offer(self._reveal, "reveal_dice")
            self._offer(self._reveal_checks, "reveal_checks")

    def _own(self, committed: dict | None) -> str | None:
        """This player's client seed in force, or None."""
        if committed is None:
            return None
        return committed["client_seeds"].get(self.actions.session.actor.player_id)

    def _mixed_in(self) -> bool:
        """Whether this player set a seed of theirs (by hand or by their browser) in this contest: a
        renewed commitment keeps the client seeds it had."""
        me = self.actions.session.actor.player_id
        return any(e["type"] == "client_seed_set" and e["who"] == me for e in self.contest.events)

    def _show_own_seed(self, committed: dict | None) -> None:
        open_ = committed is not None and not committed["rolled"] and not committed["revealed"]
        if open_:
            mixed = self._mixed_in()
            help_text = self._t("fair.seed_mixed" if mixed else "fair.seed_help")
            if not mixed and _batch.served(self._doc):
                self._schedule(self._mix_in_browser_seed)
            if not self._seed.value_input:  # the browser's seed until the person types their own
                self._seed.value = self._browser.seed
        elif committed is not None and self._own(committed) is not None:
            help_text = self._t("fair.seed_fixed")
            self._seed.value = self._own(committed)
        else:
            help_text = self._t("fair.seed_later")
        # while the field is greyed its help is why, said under the field itself (once, not twice)
        grey(self._seed, None if open_ else help_text)
        self._help.param.update(object=f"<small>{esc(help_text)}</small>" if open_ else "", visible=open_)
        self._offer_seed()

    def _offer_seed(self) -> None:
        seed = (self._seed.value_input or "").strip() or "-"
        self._offer(self._set, "set_client_seed", seed=seed)

    def _on_browser_seed(self, event) -> None:
        # the refresh puts it in the field (unless the person typed) and mixes it into an open commitment
        self._schedule(self._refresh_now)

    def _mix_in_browser_seed(self) -> None:
        """Mix the browser's seed into a new commitment by itself: random by default, never the server's.

        Once per commitment, and only while no seed of this player's is in it; a refusal (the first
        roll came first) leaves the server's random seed for them, and changes nothing.
        """
        contest, seed = self.contest, self._browser.seed
        committed = None if contest is None else contest.dice_commitment
        if (not seed or committed is None or committed["rolled"] or committed["revealed"]
                or committed["commitment"] in self._auto or self._mixed_in()):
            return
        self._auto.add(committed["commitment"])

        def answered(_, error) -> None:
            # a refusal: too late for this commitment; the button says why, the next contest takes it
            if error is not None and not isinstance(error, RuleError):
                raise error
        self.actions.act_in_order("set_client_seed", answered, seed=seed)

    def _set_seed(self) -> None:
        seed = (self._seed.value_input or self._seed.value or "").strip()
        self._run("set_client_seed", seed=seed, then=lambda _: self._info.param.update(
            object=md_esc(self._t("fair.seed_done", seed=seed)), visible=True))
