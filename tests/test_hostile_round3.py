"""Third hostile round (issue 21): each class of failure, several cases each.

Assembling parts that are not what they claim; site markers no build wrote and files no build
wrote; links out of the project on the way to a published file; character references naming
characters the checks refuse; the preview server's address and requests; the language list;
jieba's cache; the publish swap; small promises. Builds are shared per module where a test only
reads them, because each real build takes a while on a small machine.
"""

from __future__ import annotations

import http.client
import json
import marshal
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from rulesite.catalog import load_catalog
from rulesite.cli import main
from rulesite.engine.search_terms import CACHE_ENV
from rulesite.errors import DataError, UsageError
from rulesite.model import SHORT_TEXT, check_text
from rulesite.project import Project, links_out
from rulesite.publish.build import assemble, build
from rulesite.publish.marker import HEADER, MARKER, read_marker
from rulesite.publish.site_folder import exchange
from rulesite.scoring.payload import plain
from rulesite.serve.server import Versions, make_server, open_server, parse_address
from tests.helpers import REPO, interruptible, tree_digest
from tests.projects import copy_built, extra_game_text, good_game_text, make_project, skipping
from tests.site_checks import search_files

CALCULATOR_STATE = REPO / "templates" / "theme" / "assets" / "calculator-state.js"

# --- Shared builds ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def built(built_fixture: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A project built whole (the run's shared build) and one language at a time, plus an
    English part of other data."""
    root = tmp_path_factory.mktemp("round3")
    project = Project(copy_built(built_fixture / "project", root / "project"))
    pages = {"whole": int((built_fixture / "pages.txt").read_text("utf-8"))}
    parts = {lang: root / f"part-{lang}" for lang in ("zh", "en")}
    for lang, folder in parts.items():
        pages[lang] = build(project, site_dir=folder, languages=(lang,)).pages
    (root / "pages.txt").write_text(" ".join(f"{k}={v}" for k, v in pages.items()), "utf-8")
    changed = Project(root / "changed")
    shutil.copytree(project.root, changed.root, ignore=skipping("site", "content"))
    game = changed.games_dir / "mini-game.yaml"
    game.write_text(game.read_text("utf-8").replace("bgg_rank: 9999", "bgg_rank: 9998"), "utf-8")
    build(changed, site_dir=root / "changed-en", languages=("en",))
    return {
        "root": root,
        "project": project.root,
        "whole": project.site_dir,
        "zh": parts["zh"],
        "en": parts["en"],
        "changed-en": root / "changed-en",
    }


def _copy(source: Path, target: Path) -> Path:
    shutil.copytree(source, target, symlinks=True, ignore=skipping())
    return target


def _refusal(project: Path, *argv: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(["--project", str(project), *argv])
    return code, capsys.readouterr().err


# --- 1. assemble proves what each part is -------------------------------------------------------


class TestAssembleParts:
    def test_parts_of_one_build_assemble_to_the_whole_site(
        self, built: dict[str, Path], tmp_path: Path
    ) -> None:
        out = tmp_path / "site"
        assemble(Project(built["project"]), {"zh": built["zh"], "en": built["en"]}, out)
        assert tree_digest(out) == tree_digest(built["whole"])
        assert read_marker(out).languages == ("zh", "en")

    def test_the_same_folder_twice_is_refused(self, built: dict[str, Path], tmp_path: Path) -> None:
        with pytest.raises(UsageError) as caught:
            assemble(Project(built["project"]), {"zh": built["zh"], "en": built["zh"]}, tmp_path)
        assert caught.value.lines() == [
            f"{built['zh']}: given for both zh and en; each needs its own"
        ]

    def test_swapped_languages_are_refused(self, built: dict[str, Path], tmp_path: Path) -> None:
        with pytest.raises(UsageError) as caught:
            assemble(Project(built["project"]), {"zh": built["en"], "en": built["zh"]}, tmp_path)
        assert caught.value.lines() == [
            f"{built['en']}: holds the en site, not the zh part that "
            "`rulesite build --language zh` writes"
        ]

    def test_a_whole_site_given_as_a_part_is_refused(
        self, built: dict[str, Path], tmp_path: Path
    ) -> None:
        with pytest.raises(UsageError, match=r"holds the whole site \(zh, en\), not the zh part"):
            assemble(Project(built["project"]), {"zh": built["whole"], "en": built["en"]}, tmp_path)

    def test_parts_built_from_different_data_are_refused(
        self, built: dict[str, Path], tmp_path: Path
    ) -> None:
        target = tmp_path / "site"
        with pytest.raises(UsageError) as caught:
            assemble(
                Project(built["project"]), {"zh": built["zh"], "en": built["changed-en"]}, target
            )
        (line,) = caught.value.lines()
        assert line.startswith("the parts were built from different data or settings (zh ")
        assert line.endswith("build every language from the same project")
        assert not target.exists()

    def test_links_inside_a_part_are_refused_never_followed(
        self, built: dict[str, Path], tmp_path: Path
    ) -> None:
        secret = tmp_path / "secret"
        secret.mkdir()
        (secret / "key.txt").write_text("private\n", "utf-8")
        for name, link_to in (("leak.txt", secret / "key.txt"), ("leak", secret)):
            part = _copy(built["zh"], tmp_path / f"zh-{name}")
            (part / "assets" / name).symlink_to(link_to)
            target = tmp_path / f"site-{name}"
            with pytest.raises(UsageError) as caught:
                assemble(Project(built["project"]), {"zh": part, "en": built["en"]}, target)
            assert caught.value.lines() == [
                f"{part}/assets/{name}: is a symbolic link or special file; a build writes none, "
                "so the part is refused"
            ]
            assert not target.exists()

    def test_a_marker_no_build_wrote_or_a_part_with_other_files_is_refused(
        self, built: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        empty = _copy(built["en"], tmp_path / "empty-marker")
        (empty / MARKER).write_text("", "utf-8")
        linked = _copy(built["en"], tmp_path / "linked-marker")
        (linked / MARKER).unlink()
        (linked / MARKER).symlink_to(built["en"] / MARKER)
        extra = _copy(built["en"], tmp_path / "extra-file")
        (extra / "planted.html").write_text("<script>alert(1)</script>", "utf-8")
        lost = _copy(built["en"], tmp_path / "lost-file")
        (lost / "index.html").unlink()
        expected = {
            empty: "not a site `rulesite build --language en` wrote (its .rulesite-site is not "
            "one a build wrote (its content is not a marker))",
            linked: "not a site `rulesite build --language en` wrote (its .rulesite-site is a "
            "symbolic link, not the file a build writes)",
            extra: "planted.html: is not one of the files its build wrote (1 unknown, 0 missing); "
            "build the part again",
            lost: "index.html: is missing, yet one of the files its build wrote (0 unknown, "
            "1 missing); build the part again",
        }
        for part, message in expected.items():
            code, err = _refusal(
                built["project"],
                "assemble",
                f"zh={built['zh']}",
                f"en={part}",
                "--site-dir",
                str(tmp_path / "never"),
                capsys=capsys,
            )
            separator = "/" if part in (extra, lost) else ": "
            assert (code, err) == (2, f"{part}{separator}{message}\n")
        assert not (tmp_path / "never").exists()


# --- 2. a site folder is replaced only when a build wrote all of it -----------------------------


class TestSiteMarker:
    @pytest.fixture
    def project(self, built: dict[str, Path], tmp_path: Path) -> Project:
        copy = Project(tmp_path / "project")
        shutil.copytree(built["project"], copy.root, ignore=skipping("content"))
        return copy

    def _folder_of_files(self, tmp_path: Path) -> Path:
        folder = tmp_path / "mine"
        folder.mkdir()
        (folder / "thesis.txt").write_text("years of work\n", "utf-8")
        return folder

    def test_an_empty_or_forged_marker_beside_files_is_refused(
        self, project: Project, tmp_path: Path
    ) -> None:
        folder = self._folder_of_files(tmp_path)
        for content in ("", "rulesite-site: 1\n", f"{HEADER}\nrulesite-site: 1\nlanguages: zh"):
            (folder / MARKER).write_text(content, "utf-8")
            with pytest.raises(UsageError) as caught:
                build(project, site_dir=folder)
            assert caught.value.lines() == [
                f"site folder {folder}: is not empty and its .rulesite-site is not one a build "
                "wrote (its content is not a marker); empty or remove it yourself, or choose "
                "another folder"
            ]
        assert (folder / "thesis.txt").read_text("utf-8") == "years of work\n"

    def test_a_linked_or_old_marker_is_refused(self, project: Project, tmp_path: Path) -> None:
        folder = self._folder_of_files(tmp_path)
        (folder / MARKER).symlink_to(project.site_dir / MARKER)
        with pytest.raises(
            UsageError, match=r"its \.rulesite-site is a symbolic link, not the file"
        ):
            build(project, site_dir=folder)
        (folder / MARKER).unlink()
        (folder / MARKER).write_text(HEADER + "\n", "utf-8")
        with pytest.raises(UsageError, match="comes from an older rulesite that did not list"):
            build(project, site_dir=folder)
        assert (folder / "thesis.txt").is_file()

    def test_files_added_to_a_built_site_are_named_not_deleted(
        self, project: Project, capsys: pytest.CaptureFixture[str]
    ) -> None:
        site = project.site_dir
        (site / "CNAME").write_text("rules.example.org\n", "utf-8")
        (site / "games" / "google1234.html").write_text("google-site-verification\n", "utf-8")
        (site / "robots.txt").symlink_to(site / "CNAME")
        before = tree_digest(site)
        code, err = _refusal(project.root, "build", capsys=capsys)
        assert code == 2
        assert err == (
            "site folder site: holds files no build wrote: CNAME, games/google1234.html, "
            "robots.txt; to publish a file with every build, put it in static/ (copied into the "
            "site's root); else move it away\n"
        )
        assert tree_digest(site) == before

    def test_static_files_are_published_with_every_build(
        self, project: Project, built: dict[str, Path]
    ) -> None:
        static = project.static_dir
        (static / ".well-known").mkdir(parents=True)
        (static / "CNAME").write_text("rules.example.org\n", "utf-8")
        (static / ".well-known" / "security.txt").write_text("Contact: x\n", "utf-8")
        build(project)
        assert (project.site_dir / "CNAME").read_text("utf-8") == "rules.example.org\n"
        assert ".well-known/security.txt" in read_marker(project.site_dir).files
        whole = tree_digest(project.site_dir)
        expected = tree_digest(built["whole"])
        assert {
            k: v for k, v in whole.items() if k not in ("CNAME", ".well-known/security.txt", MARKER)
        } == {k: v for k, v in expected.items() if k != MARKER}
        build(project)  # the files it wrote are its own: the next build replaces the folder
        assert tree_digest(project.site_dir) == whole

    def test_static_files_that_are_links_or_clash_with_built_files_are_refused(
        self, project: Project, tmp_path: Path
    ) -> None:
        static = project.static_dir
        static.mkdir()
        outside = tmp_path / "outside.txt"
        outside.write_text("secret\n", "utf-8")
        (static / "robots.txt").symlink_to(outside)
        before = tree_digest(project.site_dir)
        with pytest.raises(UsageError) as caught:
            build(project)
        assert caught.value.lines() == [
            "static/robots.txt: is a symbolic link or special file; put the file itself in static/"
        ]
        (static / "robots.txt").unlink()
        (static / "index.html").write_text("<p>mine</p>", "utf-8")
        with pytest.raises(UsageError) as caught:
            build(project)
        assert caught.value.lines() == [
            "static/index.html: the build writes a file of that name; rename or remove it"
        ]
        assert tree_digest(project.site_dir) == before


# --- 3. no link on the way to a published file leads out of the project --------------------------


class TestLinksOut:
    def _project(self, tmp_path: Path) -> Project:
        return Project(
            make_project(
                tmp_path / "project",
                {"mini-game.yaml": good_game_text(), "extra-game.yaml": extra_game_text()},
            )
        )

    def test_a_picture_folder_linked_out_of_the_project_is_refused(self, tmp_path: Path) -> None:
        project = self._project(tmp_path)
        outside = tmp_path / "outside-images"
        shutil.move(project.data_dir / "images", outside)
        (project.data_dir / "images").symlink_to(outside, target_is_directory=True)
        with pytest.raises(DataError) as caught:
            load_catalog(project)
        (line,) = [line for line in caught.value.lines() if "board.png" in line]
        assert line.endswith(
            f"data/images/extra-game/board.png is {outside}/extra-game/board.png, outside the "
            "project (a link on its way leads out); pictures must be in data/images/ itself"
        )

    def test_a_game_folder_of_pictures_linked_out_is_refused(self, tmp_path: Path) -> None:
        project = self._project(tmp_path)
        outside = tmp_path / "outside-game"
        shutil.move(project.data_dir / "images" / "extra-game", outside)
        (project.data_dir / "images" / "extra-game").symlink_to(outside)
        with pytest.raises(DataError) as caught:
            load_catalog(project)
        (line,) = [line for line in caught.value.lines() if "board.png" in line]
        assert line.endswith(
            f"data/images/extra-game/board.png links to {outside}/board.png, outside "
            "data/images/; pictures must be in it"
        )

    def test_links_in_the_theme_that_lead_out_are_refused(self, tmp_path: Path) -> None:
        project = Project(make_project(tmp_path / "project"))
        secret = tmp_path / "secret.css"
        secret.write_text("/* private */", "utf-8")
        link = project.templates_dir / "theme" / "assets" / "leak.css"
        link.symlink_to(secret)
        with pytest.raises(UsageError) as caught:
            build(project)
        assert caught.value.lines() == [
            f"templates/theme/assets/leak.css: is a link that leads out of the project (to "
            f"{secret}); files a site publishes must be in it"
        ]
        assert not project.site_dir.exists()

    def test_links_out_follows_chains_but_accepts_links_inside(self, tmp_path: Path) -> None:
        root = tmp_path / "root"
        (root / "a" / "b").mkdir(parents=True)
        (root / "other").mkdir()
        (root / "a" / "inside").symlink_to(root / "other")
        (root / "other" / "out").symlink_to(tmp_path)
        (root / "a" / "b" / "fine").symlink_to(root / "a")
        assert links_out(root, root / "a") == [root / "a" / "inside" / "out"]
        assert links_out(root, root / "missing") == []


# --- 4. character references are the characters they name ---------------------------------------


class TestCharacterReferences:
    @pytest.mark.parametrize(
        ("text", "message"),
        [
            ("a &#x1b; b", "U+001B (a control character), written as the character reference "
             "'&#x1b;', at character 3"),
            ("a &#xFFFF;", "U+FFFF (not a character), written as the character reference "
             "'&#xFFFF;', at character 3"),
            ("x &#x202e;y", "U+202E (RIGHT-TO-LEFT OVERRIDE), written as the character "
             "reference '&#x202e;', at character 3"),
            ("x &#8238y", "U+202E (RIGHT-TO-LEFT OVERRIDE), written as the character "
             "reference '&#8238', at character 3"),
            ("&#x7;", "U+0007 (a control character), written as the character reference "
             "'&#x7;', at character 1"),
        ],
    )  # fmt: skip
    def test_a_reference_to_a_refused_character_is_refused(self, text: str, message: str) -> None:
        with pytest.raises(ValueError) as caught:
            check_text(text, SHORT_TEXT)
        assert str(caught.value) == f"text contains {message}; remove it"

    def test_invisible_references_alone_are_no_text(self) -> None:
        for text in ("&#x200b;", "&#8203; &#x200B;", "&#xFEFF;"):
            with pytest.raises(
                ValueError, match=r"only invisible characters .*character references"
            ):
                check_text(text, SHORT_TEXT)
        for text in ("a &amp; b", "&lt;b&gt;", "caf&#xe9;", "&#x9f; and &#0;"):
            assert check_text(text, SHORT_TEXT) == text

    def test_references_are_refused_in_every_field_with_file_and_line(self, tmp_path: Path) -> None:
        text = (
            good_game_text()
            .replace(
                "en: Each player takes 5 cards.", "en: Each player takes 5 cards &#x1b;[2J.", 1
            )
            .replace("title: {zh: 准备, en: Setup}", "title: {zh: 准备, en: 'Setup &#x202E;'}")
        )
        project = Project(make_project(tmp_path / "p", {"mini-game.yaml": text}))
        with pytest.raises(DataError) as caught:
            load_catalog(project)
        lines = caught.value.lines()
        assert any(
            line.endswith(
                "rules[0].title.en: text contains U+202E (RIGHT-TO-LEFT OVERRIDE), written as the "
                "character reference '&#x202E;', at character 7; remove it"
            )
            for line in lines
        ), lines
        assert any(
            line.endswith(
                "rules[0].body.en: text contains U+001B (a control character), written as the "
                "character reference '&#x1b;', at character 27; remove it"
            )
            for line in lines
        ), lines
        assert main(["--project", str(project.root), "validate"]) == 1


# --- 5. the preview server's address is checked before anything is built ------------------------


def _serve(project: Path, *argv: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rulesite", "--project", str(project), "serve", *argv],
        capture_output=True,
        text=True,
        timeout=timeout,
    )


class TestPreviewAddress:
    @pytest.mark.parametrize(
        "address",
        ["8000", "localhost", "127.0.0.1:", "127.0.0.1:99999", "::1:8000", "[::1]8000", "a b:80"],
    )
    def test_a_malformed_address_is_one_line_and_exit_2_before_any_build(
        self, tmp_path: Path, address: str
    ) -> None:
        project = make_project(tmp_path / "p")
        result = _serve(project, "--dev-addr", address, timeout=30)
        assert (result.returncode, result.stdout) == (2, "")
        assert result.stderr == (
            f"--dev-addr {address}: write HOST:PORT, e.g. 127.0.0.1:8000 ([::1]:8000 for IPv6), "
            "with a port from 0 to 65535\n"
        )
        assert not (project / "content" / "zh").exists()

    def test_a_port_in_use_or_an_unknown_host_is_one_line_and_exit_2(self, tmp_path: Path) -> None:
        project = make_project(tmp_path / "p")
        with socket.socket() as taken:
            taken.bind(("127.0.0.1", 0))
            taken.listen()
            port = taken.getsockname()[1]
            result = _serve(project, "--dev-addr", f"127.0.0.1:{port}", timeout=30)
        assert (result.returncode, result.stderr) == (
            2,
            f"--dev-addr 127.0.0.1:{port}: port {port} is in use; stop what uses it or choose "
            "another port\n",
        )
        result = _serve(project, "--dev-addr", "no-such-host.invalid:8000", timeout=60)
        assert result.returncode == 2
        assert result.stderr.startswith(
            "--dev-addr no-such-host.invalid:8000: host no-such-host.invalid cannot be resolved ("
        )
        assert result.stderr.count("\n") == 1
        result = _serve(project, "--dev-addr", "192.0.2.1:8000", timeout=30)
        assert result.stderr == (
            "--dev-addr 192.0.2.1:8000: 192.0.2.1 is not an address of this machine\n"
        )

    def test_ipv6_loopback_serves(self, tmp_path: Path) -> None:
        assert parse_address("[::1]:8000") == ("::1", 8000)
        assert parse_address("localhost:0") == ("localhost", 0)
        site = tmp_path / "site"
        site.mkdir()
        (site / "index.html").write_text("<html><body>hello</body></html>", "utf-8")
        said: list[str] = []
        server = open_server("[::1]:0", site, Versions(), said.append)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            port = server.server_address[1]
            assert said == [f"rulesite: serving on http://[::1]:{port}/"]
            with urllib.request.urlopen(f"http://[::1]:{port}/", timeout=10) as response:
                assert b"hello" in response.read()
        finally:
            server.shutdown()
            server.server_close()


# --- 9. the preview server answers every request path and exits 130 on Ctrl-C ------------------


class TestPreviewRequests:
    @pytest.fixture
    def served(self, tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> Iterator[str]:
        site = tmp_path / "site"
        site.mkdir()
        (site / "index.html").write_text("<html><body>hello</body></html>", "utf-8")
        (site / "404.html").write_text("<html><body>not here</body></html>", "utf-8")
        server = make_server("127.0.0.1", 0, site, Versions(), lambda line: None)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            yield f"127.0.0.1:{server.server_address[1]}"
        finally:
            server.shutdown()
            server.server_close()
        assert "Traceback" not in capfd.readouterr().err

    @pytest.mark.parametrize(
        "path",
        [
            "/%00",
            "/a%00b/",
            "/" + "x" * 5000,
            "/" + "x/" * 3000,
            "/%ff%fe",
            "/..%2f..%2fetc/passwd",
        ],
    )
    @pytest.mark.parametrize("method", ["GET", "HEAD"])
    def test_hostile_paths_are_not_found_never_a_traceback(
        self, served: str, path: str, method: str
    ) -> None:
        connection = http.client.HTTPConnection(served, timeout=10)
        connection.request(method, path)
        response = connection.getresponse()
        response.read()
        assert response.status == 404
        connection.close()

    def test_odd_reload_versions_are_answered(self, served: str) -> None:
        for since in ("%C2%B2", "9" * 40, "-1", "%00"):
            url = f"http://{served}/.rulesite/reload?since={since}"
            with urllib.request.urlopen(url, timeout=10) as response:
                assert response.read() == b"0"

    def test_ctrl_c_exits_130_with_a_line(self, tmp_path: Path) -> None:
        project = make_project(tmp_path / "p")
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        process = subprocess.Popen(
            [sys.executable, "-m", "rulesite", "serve", "--dev-addr", f"127.0.0.1:{port}"],
            cwd=project,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            preexec_fn=interruptible,
        )
        try:
            deadline = time.monotonic() + 240
            while time.monotonic() < deadline:
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5).close()
                    break
                except OSError:
                    time.sleep(0.5)
            process.send_signal(signal.SIGINT)
            _, err = process.communicate(timeout=60)
        finally:
            if process.poll() is None:
                process.kill()
        assert process.returncode == 130
        assert err.rstrip().endswith("interrupted; site/ and content/ were left as they were")
        assert "Traceback" not in err


# --- 6. a wrong language list is named alone, not buried under "unknown language" lines --------


class TestLanguageList:
    @pytest.mark.parametrize(
        ("old", "new", "expected"),
        [
            ("  - code: en", "  - code: zh", "data/site.yaml:14: languages[1].code: duplicate "
             "language code 'zh'\ndata/site.yaml:24: names_language: no language with code 'en' "
             "(the site's languages are zh)"),
            ("  - code: zh", "  - code: en", "data/site.yaml:14: languages[1].code: duplicate "
             "language code 'en'"),
            ("  - code: en", "  - code: ZH", "data/site.yaml:14: languages[1].code: 'ZH' is not "
             "a language tag: write one such as zh, en, zh-Hant or ja"),
        ],
    )  # fmt: skip
    def test_a_duplicated_code_is_the_one_line_reported(
        self,
        tmp_path: Path,
        capsys: pytest.CaptureFixture[str],
        old: str,
        new: str,
        expected: str,
    ) -> None:
        project = make_project(tmp_path / "p")
        site = project / "data" / "site.yaml"
        text = site.read_text("utf-8")
        assert old in text
        site.write_text(text.replace(old, new, 1), "utf-8")
        for command, code in (("validate", 1), ("build", 1), ("new", 1)):
            argv = [command, "fresh-game"] if command == "new" else [command]
            assert main(["--project", str(project), *argv]) == code
            captured = capsys.readouterr()
            # A build says its stage first ("rulesite: checking 1 game…"); then the problems.
            problems = [line for line in captured.err.splitlines() if not _progress(line)]
            assert problems == expected.splitlines(), command
        assert not (project / "site").exists()

    def test_a_duplicated_url_folder_stops_the_cascade_too(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        project = make_project(tmp_path / "p")
        site = project / "data" / "site.yaml"
        text = site.read_text("utf-8")
        site.write_text(text.replace('prefix: ""', "prefix: en", 1), "utf-8")
        assert main(["--project", str(project), "validate"]) == 1
        lines = capsys.readouterr().err.splitlines()
        assert len(lines) <= 3, lines
        assert not any("unknown language" in line for line in lines)


# --- 7. jieba's cache is the project's, never a file planted in the shared temporary folder -----


class TestJiebaCache:
    def test_a_planted_cache_changes_nothing_and_jieba_says_nothing(
        self, built: dict[str, Path], tmp_path: Path
    ) -> None:
        planted = tmp_path / "shared-tmp"
        planted.mkdir()
        # A word table in which Chinese is one word per character: search would change.
        (planted / "jieba.cache").write_bytes(marshal.dumps(({"迷": 1, "你": 1}, 2)))
        project = tmp_path / "p"
        # Without the project's own cache too: this build must make it, not read a planted one.
        shutil.copytree(built["project"], project, ignore=skipping("site", "content", "jieba"))
        result = subprocess.run(
            [sys.executable, "-m", "rulesite", "build"],
            cwd=project,
            capture_output=True,
            text=True,
            env={**os.environ, "TMPDIR": str(planted)},
            timeout=600,
        )
        assert result.returncode == 0, result.stderr
        assert "prefix dict" not in result.stderr and "jieba" not in result.stderr.lower()
        # Every chunk of the index (the words jieba split) as a build with the right table.
        ours = search_files(project / "site" / "search")
        assert ours == search_files(built["whole"] / "search")
        assert (project / ".cache" / "jieba" / "jieba.cache").is_file()
        assert (planted / "jieba.cache").stat().st_size < 100  # read by no one, never rewritten

    @pytest.mark.parametrize("kind", ["private", "link", "shared"])
    def test_the_cache_folder_must_be_private(self, tmp_path: Path, kind: str) -> None:
        cache = tmp_path / "cache"
        if kind == "link":
            (tmp_path / "elsewhere").mkdir()
            cache.mkdir()
            (cache / "jieba").symlink_to(tmp_path / "elsewhere")
        elif kind == "shared":
            (cache / "jieba").mkdir(parents=True)
            (cache / "jieba").chmod(0o777)
        # Where jieba wrote the cache of its word table when it initialized.
        code = (
            "import tempfile; from rulesite.engine.search_terms import prepare_jieba; "
            "prepare_jieba(); print(tempfile.gettempdir())"
        )
        result = subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            env={**os.environ, CACHE_ENV: str(cache), "TMPDIR": str(tmp_path)},
            timeout=60,
        )
        # The process's temporary folder is its own again once jieba has initialized.
        assert result.stdout.strip() == str(tmp_path), result.stderr
        private = cache / "jieba" / "jieba.cache"
        own = tmp_path / f"rulesite-jieba-{os.getuid()}" / "jieba.cache"
        assert not (tmp_path / "jieba.cache").exists()  # never the shared temporary folder
        if kind == "private":
            assert private.is_file() and not own.exists()
        else:
            assert own.is_file() and not (tmp_path / "elsewhere" / "jieba.cache").exists()


# --- 10. small promises ---------------------------------------------------------------------------


class TestSmallPromises:
    def test_a_one_language_build_reports_its_own_pages(self, built: dict[str, Path]) -> None:
        pages = dict(item.split("=") for item in (built["root"] / "pages.txt").read_text().split())
        assert int(pages["zh"]) + int(pages["en"]) == int(pages["whole"])
        assert int(pages["zh"]) == int(pages["en"]) > 0

    def test_pydantic_messages_keep_their_acronyms(self, tmp_path: Path) -> None:
        text = good_game_text()
        assert "url: https://" in text
        project = Project(
            make_project(
                tmp_path / "p", {"mini-game.yaml": text.replace("url: https://", "url: ftp://", 1)}
            )
        )
        with pytest.raises(DataError) as caught:
            load_catalog(project)
        (line,) = caught.value.lines()
        assert line.endswith(": URL scheme should be 'http' or 'https'"), line

    @pytest.mark.parametrize(
        ("cut", "message"),
        [
            (33, "is a PNG image with no image data (no IDAT chunk); save it again"),
            (-12, "is cut short: its image data ends early; save the picture again"),
        ],
    )
    def test_a_png_without_its_image_data_is_refused(
        self, tmp_path: Path, cut: int, message: str
    ) -> None:
        project = Project(
            make_project(
                tmp_path / "p",
                {"mini-game.yaml": good_game_text(), "extra-game.yaml": extra_game_text()},
            )
        )
        board = project.data_dir / "images" / "extra-game" / "board.png"
        board.write_bytes(board.read_bytes()[:cut])
        with pytest.raises(DataError) as caught:
            load_catalog(project)
        (line,) = [line for line in caught.value.lines() if "board.png" in line]
        assert line.endswith(f"data/images/extra-game/board.png {message}"), line


# --- 8. the publish swap exchanges trees atomically where the system can ------------------------

KILL_AFTER_EXCHANGE = """
import os, signal, sys
from pathlib import Path

real_rename = os.rename

def rename(src, dst, *args, **kwargs):
    if Path(dst).name.startswith(".rulesite-old-"):  # the live tree already exchanged
        os.kill(os.getpid(), signal.SIGKILL)
    return real_rename(src, dst, *args, **kwargs)

os.rename = rename
from rulesite.cli import main
sys.exit(main(sys.argv[1:]))
"""


class TestAtomicSwap:
    def test_a_kill_after_the_exchange_leaves_the_new_site_in_place(
        self, built: dict[str, Path], tmp_path: Path
    ) -> None:
        project = Project(tmp_path / "p")
        shutil.copytree(built["project"], project.root, symlinks=True, ignore=skipping())
        game = project.games_dir / "mini-game.yaml"
        game.write_text(
            game.read_text("utf-8").replace("bgg_rank: 9999", "bgg_rank: 9996"), "utf-8"
        )
        killed = subprocess.run(
            [sys.executable, "-c", KILL_AFTER_EXCHANGE, "build"],
            cwd=project.root,
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert killed.returncode == -signal.SIGKILL, killed.stderr
        # Never a moment without a site: the live path holds the new tree at once.
        page = project.site_dir / "games" / "mini-game" / "index.html"
        assert "9996" in page.read_text("utf-8")
        assert (project.site_dir / MARKER).is_file()
        result = subprocess.run(
            [sys.executable, "-m", "rulesite", "validate"], cwd=project.root, capture_output=True
        )
        assert result.returncode == 0
        result = subprocess.run(
            [sys.executable, "-m", "rulesite", "build"],
            cwd=project.root,
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert result.returncode == 0, result.stderr
        assert "finished publishing an interrupted build" in result.stderr
        assert "9996" in page.read_text("utf-8")
        assert list(project.root.glob(".rulesite-*")) == []  # staging and journal, beside site/

    def test_exchange_swaps_two_folders_or_says_it_cannot(self, tmp_path: Path) -> None:
        first, second = tmp_path / "first", tmp_path / "second"
        first.mkdir()
        second.mkdir()
        (first / "a").write_text("1", "utf-8")
        assert exchange(first, second) is True
        assert (second / "a").is_file() and not (first / "a").exists()
        with pytest.raises(FileNotFoundError):
            exchange(first, tmp_path / "missing")


class TestCalculatorText:
    """Item 10: the calculator's words and names, as the rest of the site shows texts."""

    def test_calculator_labels_read_as_every_other_page_reads_them(self) -> None:
        for source, shown in (
            ("Wood &amp; stone", "Wood & stone"),
            ("&lt;b&gt;bold&lt;/b&gt;", "<b>bold</b>"),
            ("**Coins** per `3`", "Coins per 3"),
            ("snake_case", "snake_case"),
        ):
            assert plain({"zh": source, "en": source}, "en") == shown

    def test_a_player_name_drops_what_data_texts_may_not_hold(self) -> None:
        script = (
            "global.window = {RulesiteScore: {}};"
            f"require({json.dumps(str(CALCULATOR_STATE))});"
            "const clean = window.RulesiteSheet.cleanName;"
            "console.log(JSON.stringify(["
            "clean('Ann\\u202eevil'), clean('B\\u0000o\\u2066b\\u2029'),"
            "clean('Cy \\ud83c\\udfb2'),"
            "clean('x'.repeat(50)).length]));"
        )
        result = subprocess.run(
            ["node", "-e", script], capture_output=True, text=True, timeout=60, check=True
        )
        assert json.loads(result.stdout) == ["Annevil", "Bob", "Cy 🎲", 40]
        source = CALCULATOR_STATE.read_text("utf-8")
        assert "next.names[i] = cleanName(data.names[i]);" in source  # links and storage too


class TestCharacterReferencesInTheSiteFile:
    def test_site_names_and_labels_are_checked_too(self, tmp_path: Path) -> None:
        project = Project(make_project(tmp_path / "p"))
        text = project.site_file.read_text("utf-8")
        changed = text.replace("site_name: Rulesite", "site_name: 'Rule&#x202e;site'", 1).replace(
            "platform: {zh: WANGO, en: WANGO}", "platform: {zh: WANGO, en: 'WAN&#27;GO'}"
        )
        assert changed.count("&#") == 2
        project.site_file.write_text(changed, "utf-8")
        with pytest.raises(DataError) as caught:
            load_catalog(project)
        assert caught.value.lines() == [
            "data/site.yaml:18: languages[1].site_name: text contains U+202E (RIGHT-TO-LEFT "
            "OVERRIDE), written as the character reference '&#x202e;', at character 5; remove it",
            "data/site.yaml:25: platform.en: text contains U+001B (a control character), written "
            "as the character reference '&#27;', at character 4; remove it",
        ]


class TestStaticFolder:
    def test_odd_static_folders_are_refused_before_anything_is_built(self, tmp_path: Path) -> None:
        project = Project(make_project(tmp_path / "p"))
        static = project.static_dir
        static.mkdir()
        (static / "bad\nname.txt").write_text("x", "utf-8")
        with pytest.raises(UsageError) as caught:
            build(project)
        assert caught.value.lines() == [
            "static/bad\\nname.txt: a file name may not hold control characters"
        ]
        (static / "bad\nname.txt").unlink()
        (static / ".rulesite-site").write_text("x", "utf-8")
        with pytest.raises(UsageError, match=r"names starting with \.rulesite- are rulesite's"):
            build(project)
        shutil.rmtree(static)
        static.symlink_to(tmp_path, target_is_directory=True)
        with pytest.raises(UsageError, match="static: is a symbolic link"):
            build(project)
        assert not project.site_dir.exists()


def _progress(line: str) -> bool:
    """A build's stage line on stderr (publish/progress.py), not a problem."""
    return line.startswith("rulesite: checking ")
