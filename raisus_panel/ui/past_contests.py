"""PastContests: the room's closed contests, each with its result, fates and -- on request -- its log."""

from __future__ import annotations

import io

import panel as pn
import param

from ._base import HTML, ComponentBase, esc, set_options, style
from .actions import Actions
from .round_log import RoundLog

_NONE = ""


class PastContests(ComponentBase):
    """The contests this room has closed, newest first: who fought, who won, in how many rounds, and
    the fates written; pick one to read its whole log, every die shown.

    A closed contest leaves the table (the GM closes it, or starts the next one) but not the room: its
    events stay in the room's log, so its log is rebuilt from them when asked for, on a copy that
    shares nothing with the room. Everything people typed is escaped.

    With ``report`` set, the contest picked also gets a download of its report (a file made only
    when the button is clicked; the button itself only once a contest is picked).

    Parameters
    ----------
    actions
        The adapter of the room whose closed contests are listed (nothing is sent through it).
    report
        ``report(contest_uid, lang) -> bytes``: the contest's report file (HTML), as this page's
        person may see it; no download is offered when None.
    """

    report = param.Callable(default=None, doc="""
        Makes a closed contest's report file, ``report(contest_uid, lang) -> bytes`` (HTML). The
        dashboard gives one (the layer that makes reports sits above the components); None offers
        no download.""")

    def _build(self) -> None:
        self._title = HTML(margin=(0, 10))
        self._list = HTML(sizing_mode="stretch_width", css_classes=["raisus-past-contests"])
        self._pick = pn.widgets.Select(options={}, width=320)
        self._pick.param.watch(lambda e: self._show_log(), "value")
        self._log_box = pn.Column(sizing_mode="stretch_width")
        self._download: pn.widgets.FileDownload | None = None  # made when a contest is first picked
        self._pick_row = pn.Row(self._pick, sizing_mode="stretch_width")
        self._layout = pn.Column(self._title, self._list, self._pick_row, self._log_box, sizing_mode="stretch_width")
        self._shown_log: tuple[str, str] | None = None  # (contest uid, language) of the log shown
        self._log: RoundLog | None = None

    def __panel__(self):
        return self._layout

    @property
    def log(self) -> RoundLog | None:
        """The log of the contest picked, or None."""
        return self._log

    def _wire_actions(self) -> None:
        super()._wire_actions()
        self._watch(self.actions.room, self._on_actions_state, "past_contests")

    def _relabel(self) -> None:
        self._title.object = f"<h4>{esc(self._t('past.title'))}</h4>"
        self._pick.name = self._t("past.pick")
        if self._download is not None:
            self._download.label = self._t("report.download")

    def _refresh(self) -> None:
        t = self._t
        past = list(reversed(self.actions.room.past_contests))
        self._list.object = "".join(self._summary_html(s) for s in past) or f"<i>{esc(t('past.none'))}</i>"
        self._pick.visible = bool(past)
        set_options(self._pick, {t("past.no_log"): _NONE, **{self._label(s): s["contest"] for s in past}},
                    prefer=_NONE)
        self._show_log()

    def _label(self, summary: dict) -> str:
        return self._t("past.label", name=summary["name"], rounds=summary["rounds"])

    def _summary_html(self, summary: dict) -> str:
        t = self._t
        sides = [" · ".join(esc(u["name"]) for u in side) for side in summary["sides"]]
        winner = summary["winner"]
        result = t("past.winner", side=t(f"side.{winner}")) if winner in (0, 1) else t("past.no_winner")
        outcome = f" — {esc(summary['outcome'])}" if summary.get("outcome") else ""
        names = {u["uid"]: u["name"] for side in summary["sides"] for u in side}
        fates = "".join(f"<li>{esc(names.get(uid, uid))}: {esc(text)}</li>" for uid, text in summary["fates"].items())
        return (f"<div class='raisus-past'><b>{esc(summary['name'])}</b> "
                f"({esc(t('past.rounds', n=summary['rounds']))})<br>{sides[0]} <i>vs</i> {sides[1]}<br>"
                f"{esc(result)}{outcome}{f'<ul>{fates}</ul>' if fates else ''}</div>")

    @property
    def download(self) -> pn.widgets.FileDownload | None:
        """The report download of the contest picked (None before one is picked, or without ``report``)."""
        return self._download

    def _offer_report(self, uid: str) -> None:
        if self.report is None or not uid:
            if self._download is not None:
                self._download.visible = False
            return
        if self._download is None:
            self._download = pn.widgets.FileDownload(callback=self._report_file, filename="raisus-report.html",
                                                     label=self._t("report.download"), align="end",
                                                     **style("light", outline=True))
            self._pick_row.append(self._download)
        self._download.visible = True

    def _report_file(self):
        """The picked contest's report, made now (the button's callback)."""
        return io.BytesIO(self.report(self._pick.value, self.language))

    def _show_log(self) -> None:
        uid = self._pick.value
        self._offer_report(uid)
        if not uid:
            self._shown_log, self._log = None, None
            self._log_box.objects = []
            return
        if self._shown_log == (uid, self.language):
            return
        replay = self.actions.room.replay_contest(uid)  # a copy: it shares nothing with the room
        self._shown_log = (uid, self.language)
        self._log = RoundLog(actions=Actions.local(replay), lang=self.language)
        self._log_box.objects = [self._log]
