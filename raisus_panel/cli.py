"""The ``raisus`` command: serve the dashboard, or replay a saved contest.

Thin wrappers: ``raisus serve`` serves the dashboard (``/dashboard``) with Panel on the embedded
SQLite store, or on a Redis store shared by several processes (``--store redis://... --num-procs N``);
``raisus replay FILE`` loads a contest save and prints what happened; ``raisus report FILE -o
game.html`` writes the session report of a room export or a contest save; ``raisus verify FILE``
recomputes every committed die of a contest save or a room export and prints one line per contest,
then a summary line per part;
``raisus links ROOM --new-gm`` gives the server's owner a new GM link for a room whose GM lost theirs.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

DEFAULT_DB = "raisus.sqlite"


def _check_store(args: argparse.Namespace) -> str | None:
    """The store's URL for the server processes, after opening it once here; None (and a message
    on stderr) if it cannot serve: unreachable, not ours, or SQLite with several processes."""
    from raisus_panel.room.store_url import is_shared, open_store, store_key
    from raisus_panel.rules import RuleError

    where = args.store or str(Path(args.db).resolve())
    if args.num_procs != 1 and not is_shared(where):
        print("raisus serve: --num-procs needs a store the processes can share: use --store "
              "redis://HOST:PORT/DB (the SQLite file serves one process).", file=sys.stderr)
        return None
    if args.num_procs < 1:
        print("raisus serve: --num-procs is 1 or more.", file=sys.stderr)
        return None
    try:
        open_store(where).close()  # refuse now, not on the first page; the processes open their own
    except RuleError as exc:
        if getattr(exc, "key", "") == "error.store.unavailable":
            from raisus_panel.room.redis_store import describe_url
            print(f"raisus serve: cannot reach the store {describe_url(where)}: is Redis running there?",
                  file=sys.stderr)
        else:
            print(f"raisus serve: {exc}", file=sys.stderr)
        return None
    return where if is_shared(where) else store_key(where)


def _serve(args: argparse.Namespace) -> int:
    store = _check_store(args)
    if store is None:
        return 2
    os.environ["RAISUS_STORE"] = store
    if args.lang:
        os.environ["RAISUS_LANG"] = args.lang
    for option, variable in (("max_upload_mb", "RAISUS_MAX_UPLOAD_MB"), ("rooms_per_client", "RAISUS_ROOMS_PER_CLIENT"),
                             ("rooms_per_server", "RAISUS_ROOMS_PER_SERVER"),
                             ("pages_per_client", "RAISUS_PAGES_PER_CLIENT"), ("pages_per_server", "RAISUS_PAGES_PER_SERVER")):
        if getattr(args, option) is not None:
            os.environ[variable] = str(getattr(args, option))
    from raisus_panel.dashboard import redact

    redact.install()  # before the server logs its first request: link tokens never reach the log
    if args.log_level:
        import logging

        logging.basicConfig(level=args.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    import panel as pn

    from raisus_panel.dashboard import create_app
    from raisus_panel.dashboard.app import CSS
    from raisus_panel.dashboard.settings import limits, session_token_expiration, websocket_max_message_size

    # no Bokeh reconnect: a page whose server went away reloads itself (dashboard/reconnect.py)
    pn.extension(reconnect=False, raw_css=[CSS], notifications=False)
    expiration = args.session_token_expiration or session_token_expiration()
    origins = args.allow_websocket_origin or [f"{args.address}:{args.port}", f"localhost:{args.port}"]
    auth = {}
    if args.basic_auth:
        auth["basic_auth"] = args.basic_auth
    if args.cookie_secret:
        auth["cookie_secret"] = args.cookie_secret
    from raisus_panel.room.redis_store import describe_url
    from raisus_panel.room.store_url import is_shared

    shown = describe_url(store) if is_shared(store) else store  # never a password
    procs = f", {args.num_procs} processes" if args.num_procs != 1 else ""
    print(f"raisus_panel: http://{args.address}:{args.port}/dashboard  (store: {shown}{procs})", flush=True)
    pn.serve({"dashboard": create_app}, port=args.port, address=args.address,
             websocket_origin=list(dict.fromkeys(origins)), show=False, title="raisus_panel",
             verbose=False, session_token_expiration=expiration,
             # a room file within the upload limit must fit in one message, or the page is cut off
             websocket_max_message_size=websocket_max_message_size(limits().max_upload_bytes),
             num_procs=args.num_procs, use_xheaders=args.use_xheaders, **auth)
    return 0


def _links(args: argparse.Namespace) -> int:
    """A new GM link for a room on the store, printed on this terminal only (never logged)."""
    from raisus_panel.room import RoomRegistry
    from raisus_panel.room.registry import RoomLinks
    from raisus_panel.room.store_url import open_store
    from raisus_panel.rules import RuleError

    if not args.new_gm:
        print("raisus links: say what to do: --new-gm (a new GM link; the old one stops working).", file=sys.stderr)
        return 2
    try:
        store = open_store(args.store or str(Path(args.db).resolve()))
    except RuleError as exc:
        print(f"raisus links: {exc}", file=sys.stderr)
        return 2
    try:
        token = RoomRegistry(store).new_gm_link(args.room)
    except RuleError as exc:
        print(f"raisus links: {exc}", file=sys.stderr)
        return 2
    finally:
        store.close()
    base = args.url.rstrip("/")
    print(f"New GM link for room {args.room} (the old GM link no longer works; keep this one secret):")
    print(RoomLinks(args.room, token, "", "").url("gm", base))
    return 0


def _replay(args: argparse.Namespace) -> int:
    from raisus_panel.rules import Contest, RuleError

    try:
        text = Path(args.file).read_text(encoding="utf-8")
        contest = Contest.from_json(text)
    except (OSError, UnicodeDecodeError) as exc:
        print(f"Cannot read {args.file}: {exc}", file=sys.stderr)
        return 2
    except RuleError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    print(f"{contest.name}: {contest.side_label(0)} vs {contest.side_label(1)}")
    for point in contest.history:
        scores = ", ".join(f"{contest.series[k]} {v}" for k, v in point["scores"].items())
        print(f"  round {point['round']:>3}  {point['kind']:<15} {scores}")
    winner = "-" if contest.winner is None else contest.side_label(contest.winner)
    print(f"status: {contest.status}; rounds: {contest.round}; winner: {winner}")
    return 0


def _report(args: argparse.Namespace) -> int:
    from raisus_panel.report import read_file
    from raisus_panel.room.limits import MAX_ROOM_FILE_BYTES
    from raisus_panel.rules import RuleError

    try:
        path = Path(args.file)
        if path.stat().st_size > MAX_ROOM_FILE_BYTES:  # before reading it: a huge file is not loaded
            size_mb = path.stat().st_size / 1_000_000
            print(f"raisus report: {args.file} is {size_mb:.1f} MB; a room export or contest save is at most "
                  f"{MAX_ROOM_FILE_BYTES / 1_000_000:.0f} MB.", file=sys.stderr)
            return 2
        text = path.read_bytes()
    except OSError as exc:
        print(f"raisus report: cannot read {args.file}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    try:
        page = read_file(text, args.lang, contest=args.contest)
        html = page.html()
    except RuleError as exc:
        print(f"raisus report: {args.file}: {exc}", file=sys.stderr)
        return 2
    try:
        Path(args.output).write_text(html, encoding="utf-8")
    except OSError as exc:
        print(f"raisus report: cannot write {args.output}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    print(f"{args.output}: {page.title} ({len(page.session.contests)} contest(s), {len(html) // 1024} KB)")
    return 0


def _verify(args: argparse.Namespace) -> int:
    """0 when every contest (and checks session) in the file verifies or is not revealed yet, 1 otherwise,
    2 for a file that is no log."""
    from raisus_panel.i18n import t, translate, verification_text
    from raisus_panel.room.limits import MAX_ROOM_FILE_BYTES
    from raisus_panel.rules import RuleError, verify

    lang = args.lang or "en"
    try:
        path = Path(args.file)
        size = path.stat().st_size
        if size > MAX_ROOM_FILE_BYTES:
            print(t("verify.too_large", lang, size=size, most=MAX_ROOM_FILE_BYTES), file=sys.stderr)
            return 2
        checks = verify(path.read_bytes())
    except OSError as exc:
        print(f"Cannot read {args.file}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    except RuleError as exc:
        print(translate(exc, lang), file=sys.stderr)
        return 2
    except RecursionError:  # JSON nested deeper than any log
        print(t("error.verify.not_ours", lang), file=sys.stderr)
        return 2
    if not checks:
        print(t("verify.nothing", lang))
        return 1
    for check in checks:
        print(verification_text(check, lang))
    for kind in ("contest", "checks"):
        summary = _verify_summary([c for c in checks if c.kind == kind], kind, lang)
        if summary:
            print(summary)
    # Dice not revealed yet are no failure (a GM who never revealed the checks' seed has hidden
    # nothing yet): the summary says so, and verifying again after the reveal checks them.
    return 0 if all(check.status in ("verified", "unrevealed") for check in checks) else 1


def _verify_summary(checks: list, kind: str, lang: str) -> str:
    """One line for the contests (or the action checks) of a file: how many came out how."""
    from raisus_panel.i18n import t

    if not checks:
        return ""
    counts = [t(f"verify.summary.{status}", lang, n=n) for status in ("verified", "failed", "unrevealed", "uncommitted")
              if (n := sum(c.status == status for c in checks))]
    return t(f"verify.summary.{kind}", lang, n=len(checks), counts=", ".join(counts))


_LINKS_OPTIONS_WITH_A_VALUE = {"--db", "--store", "--url"}
_LINKS_FLAGS = {"-h", "--help", "--new-gm"}


def _room_ids_as_positionals(argv: list[str]) -> list[str]:
    """``raisus links -3Vz... --new-gm``: a room id may begin with ``-``, which argparse takes for an option.

    Anything after ``links`` that is neither one of its options nor an option's value is the room id;
    it is moved behind ``--`` so argparse reads it as one (a user copies the id from a link as it is).
    """
    if not argv or argv[0] != "links" or "--" in argv:
        return argv
    options, rooms, words = [argv[0]], [], iter(argv[1:])
    for word in words:
        name = word.split("=", 1)[0]
        if name in _LINKS_FLAGS or (name in _LINKS_OPTIONS_WITH_A_VALUE and "=" in word):
            options.append(word)
        elif name in _LINKS_OPTIONS_WITH_A_VALUE:
            options += [word, next(words, "")]
        else:
            rooms.append(word)
    return [*options, "--", *rooms] if rooms else options


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``raisus`` command."""
    parser = argparse.ArgumentParser(prog="raisus", description="Play Risus with Panel.")
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="serve the dashboard (for OAuth and other options use "
                                         "`panel serve apps/dashboard.py`)")
    serve.add_argument("--db", default=os.environ.get("RAISUS_DB", DEFAULT_DB),
                       help="the SQLite file that keeps every room (default: %(default)s)")
    serve.add_argument("--store", default=os.environ.get("RAISUS_STORE") or None, metavar="URL",
                       help="where rooms are kept: redis://HOST:PORT/DB (shared by every process and "
                            "server using it) or sqlite:///FILE (default: RAISUS_STORE, else --db)")
    serve.add_argument("--num-procs", type=int, default=1, metavar="N",
                       help="server processes on this port (needs --store redis://...; default 1)")
    serve.add_argument("--use-xheaders", action="store_true",
                       help="behind a proxy (deploy/nginx.conf): take the client's address from X-Real-IP, "
                            "so room limits count people, not the proxy")
    serve.add_argument("--address", default="localhost", help="address to listen on (0.0.0.0: all)")
    serve.add_argument("--port", type=int, default=5006)
    serve.add_argument("--allow-websocket-origin", action="append",
                       help="host[:port] browsers may connect from; repeat for several")
    serve.add_argument("--lang", choices=["ko", "en"], help="default UI language")
    serve.add_argument("--basic-auth", help="a password, or a JSON file of user: password (Panel's basic auth)")
    serve.add_argument("--cookie-secret", help="secret for signing cookies (needed with --basic-auth/OAuth)")
    serve.add_argument("--session-token-expiration", type=int, metavar="SECONDS",
                       help="how long a served page's session token is accepted (default: "
                            "RAISUS_SESSION_TOKEN_EXPIRATION or 300); older pages reload to reconnect")
    serve.add_argument("--log-level", choices=["debug", "info", "warning", "error"],
                       help="log the server's requests and sessions at this level (link tokens are redacted)")
    serve.add_argument("--max-upload-mb", type=float, metavar="MB",
                       help="largest room file an import accepts (default: RAISUS_MAX_UPLOAD_MB or 5)")
    serve.add_argument("--rooms-per-client", type=int, metavar="N",
                       help="rooms one address may create or import per hour; 0: no limit "
                            "(default: RAISUS_ROOMS_PER_CLIENT or 10)")
    serve.add_argument("--rooms-per-server", type=int, metavar="N",
                       help="rooms the server creates or imports per hour; 0: no limit "
                            "(default: RAISUS_ROOMS_PER_SERVER or 200)")
    serve.add_argument("--pages-per-client", type=int, metavar="N",
                       help="pages one address may have open on a process; past it a page says so, past twice "
                            "it the connection is closed; 0: no limit (default: RAISUS_PAGES_PER_CLIENT or 30)")
    serve.add_argument("--pages-per-server", type=int, metavar="N",
                       help="pages a process keeps open in all, as --pages-per-client "
                            "(default: RAISUS_PAGES_PER_SERVER or 400)")
    replay = sub.add_parser("replay", help="print what happened in a saved contest")
    replay.add_argument("file")
    report = sub.add_parser("report", help="write the session report (one HTML file that opens offline) "
                                           "of a room export or a contest save")
    report.add_argument("file", help="a room export (the GM's 'Export the room') or a contest's save (JSON)")
    report.add_argument("-o", "--output", default="raisus-report.html",
                        help="the HTML file to write (default: %(default)s)")
    report.add_argument("--lang", choices=["ko", "en"], help="the report's language (default: RAISUS_LANG or ko)")
    report.add_argument("--contest", type=int, metavar="N",
                        help="only the room's Nth contest (1 = the first played); every contest by default")
    check = sub.add_parser("verify", help="recompute every committed die of a contest save or a room export; "
                                          "exit 0 when all verify (or are not revealed yet), 1 when one does not, 2 when the file is no game log")
    check.add_argument("file")
    check.add_argument("--lang", choices=["ko", "en"], help="language of the report (default: en)")
    links = sub.add_parser("links", help="manage a room's links from the server: --new-gm gives its GM a new link")
    links.add_argument("room", help="the room's id (the part of a link's token before the dot)")
    links.add_argument("--new-gm", action="store_true", help="a new GM link; the old GM link stops working")
    links.add_argument("--db", default=os.environ.get("RAISUS_DB", DEFAULT_DB),
                       help=f"the SQLite file, as for raisus serve (default: RAISUS_DB, else {DEFAULT_DB})")
    links.add_argument("--store", default=os.environ.get("RAISUS_STORE") or None, metavar="URL",
                       help="redis://HOST:PORT/DB or sqlite:///FILE, as for raisus serve (default: RAISUS_STORE, else --db)")
    links.add_argument("--url", default="http://localhost:5006/dashboard",
                       help="the dashboard's address the link is built on (default: http://localhost:5006/dashboard)")
    args = parser.parse_args(_room_ids_as_positionals(sys.argv[1:] if argv is None else argv))
    if args.command == "links":
        return _links(args)
    if args.command == "serve":
        return _serve(args)
    if args.command == "report":
        return _report(args)
    if args.command == "verify":
        return _verify(args)
    return _replay(args)


if __name__ == "__main__":
    sys.exit(main())
