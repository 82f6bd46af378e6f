"""Where bot/data/reader_sentences.json comes from, written into the file so a team can rebuild it (issue 23).

bench/fit_reader_sentences.py writes a `provenance` object beside the heads with --write and --fold --out, and
`--check` rebuilds the shipped file from it and names the parameters that differ:

- `corpus`: the commit whose eval/postmortems was read (`--corpus-at`, or the checkout's HEAD when its
  eval/postmortems is that commit's), `fold` and `files` (the reports read, sorted) and `files_sha256` (each file's
  bytes and its truth line, so a corpus edited in place after that commit is told from the one fitted on);
- `code`: the commit whose reader and bench fitted it (HEAD when bot/ and bench/ were clean; "+changes" otherwise);
- `label_rule`: the scorer's phrase rule the sentence labels and the threshold choice read (bot/importer/scoring.py
  `keyword_in`: "leading", a label phrase also counts without its leading function words; "whole", the rule before
  2026-12-07), also each head's FIT_LABEL_RULE;
- `rows_sha256`: per head, the rows the fit read (each candidate sentence's features and its label, in order): when a
  rebuild differs, equal rows say the fitting changed, unequal rows that the candidates, features or labels did;
- `steps` (no seed: the fit is deterministic) and `python`;
- `carried`: per head copied unfitted from the file before (`--carry`), that head's own record (every field above, its
  own corpus, code and label rule, its rows only), so that `--check` and `--rebuild-at-code` rebuild each head where it
  was fitted (a carried head's settings are its `fitted_with`, as every head's).

The fix head of the conversation reader (bot/data/reader_chat.json) is another file with its own bench
(bench/fix_head_words.py); nothing here reads it.
"""

from __future__ import annotations

import atexit
import hashlib
import io
import json
import os
import platform
import shutil
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.reader.sentences import SentenceModel  # noqa: E402

REPOSITORY = Path(__file__).resolve().parent.parent
REQUIRED = ("corpus", "code", "fold", "files", "files_sha256", "label_rule", "rows_sha256", "steps", "python")
LABEL_RULES = ("leading", "whole")
STEPS = "adagrad (bot/reader/fit.py), rows in truth.jsonl order, no seed: deterministic"


def _git(*args: str) -> str | None:
    try:
        done = subprocess.run(["git", "-C", str(REPOSITORY), *args], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout.strip() if done.returncode == 0 else None


def corpus_at(commit: str) -> Path:
    """eval/postmortems of `commit`, extracted into a new temporary directory (never the checkout's eval/)."""
    archive = subprocess.run(
        ["git", "-C", str(REPOSITORY), "archive", commit, "eval/postmortems"], capture_output=True, timeout=300
    )
    if archive.returncode != 0:
        raise SystemExit(f"--corpus-at {commit}: {archive.stderr.decode(errors='replace').strip()}")
    root = Path(tempfile.mkdtemp(prefix="reader-sentences-corpus-"))
    atexit.register(shutil.rmtree, root, True)
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(root, filter="data")
    return root / "eval" / "postmortems"


def checkout_corpus(postmortems: Path) -> str | None:
    """The checkout's HEAD when `postmortems` is its eval/postmortems and that matches HEAD (nothing changed or
    added); None otherwise (a corpus nobody can name by a commit)."""
    if postmortems.resolve() != (REPOSITORY / "eval" / "postmortems").resolve():
        return None
    if _git("status", "--porcelain", "--", "eval/postmortems") != "":
        return None
    return _git("rev-parse", "HEAD")


def code_commit() -> str | None:
    head = _git("rev-parse", "HEAD")
    if head is None:
        return None
    clean = _git("status", "--porcelain", "--untracked-files=no", "--", "bot", "bench", "pyproject.toml") == ""
    return head if clean else f"{head}+changes"


def files_sha256(postmortems: Path, files: list[str]) -> str:
    """One digest over the reports read: each file's name, its bytes' SHA-256 and its truth line as stored."""
    lines = {}
    for raw in (postmortems / "truth.jsonl").read_text(encoding="utf-8").splitlines():
        if raw.strip():
            lines[json.loads(raw)["file"]] = raw
    digest = hashlib.sha256()
    for name in sorted(files):
        body = hashlib.sha256((postmortems / name).read_bytes()).hexdigest()
        digest.update(f"{name}\0{body}\0{lines[name]}\n".encode())
    return digest.hexdigest()


def rows_sha256(rows: list[tuple[list[str], int]]) -> str:
    """The digest of a head's rows as the fit reads them (features in order, label), before the word filter."""
    return hashlib.sha256(json.dumps(rows, separators=(",", ":")).encode()).hexdigest()


def provenance(
    corpus: str | None, postmortems: Path, fold: str, files: list[str], label_rule: str, rows: dict[str, str]
) -> dict:
    return {
        "code": code_commit(),
        "corpus": corpus,
        "files": sorted(files),
        "files_sha256": files_sha256(postmortems, files),
        "fold": fold,
        "label_rule": label_rule,
        "python": platform.python_version(),
        "rows_sha256": dict(sorted(rows.items())),
        "steps": STEPS,
    }


def record_of(data: dict, head: str) -> dict:
    """The provenance `head` was fitted with: its own when it was carried from a file before, else the file's."""
    given = data.get("provenance") or {}
    return (given.get("carried") or {}).get(head) or given


def _where(data: dict, head: str) -> str:
    return f"provenance.carried.{head}" if head in (data.get("provenance") or {}).get("carried", {}) else "provenance"


def _record_lacks(given: dict, where: str) -> list[str]:
    lacks = [f"{where}.{k}" for k in REQUIRED if not given.get(k)]
    if given.get("label_rule") not in LABEL_RULES:
        lacks.append(f"{where}.label_rule: one of " + ", ".join(LABEL_RULES))
    if given.get("files") and len(set(given["files"])) != len(given["files"]):
        lacks.append(f"{where}.files: a file named twice")
    return lacks


def missing(data: dict) -> list[str]:
    """What a sentence model's file lacks to be rebuilt: provenance fields absent or empty (the file's, and each
    carried head's own), a head without its settings or its label rule, or one its record disagrees with (the fast
    test: tests/test_reader_sentences_provenance.py)."""
    given = data.get("provenance") or {}
    lacks = _record_lacks(given, "provenance")
    heads = data.get("heads", {})
    for head, record in (given.get("carried") or {}).items():
        lacks += (
            _record_lacks(record, f"provenance.carried.{head}")
            if head in heads
            else [f"provenance.carried.{head}: no such head"]
        )
    for head, fields in heads.items():
        record, where = record_of(data, head), _where(data, head)
        rule = fields.get("fitted_with", {}).get("FIT_LABEL_RULE")
        if rule != record.get("label_rule"):
            lacks.append(
                f"heads.{head}.fitted_with.FIT_LABEL_RULE: {rule!r}, the {where} says {record.get('label_rule')!r}"
            )
        if head not in (record.get("rows_sha256") or {}):
            lacks.append(f"{where}.rows_sha256.{head}")
    return lacks


def not_in_corpus(record: dict) -> list[str] | None:
    """The recorded files its corpus commit lacks under eval/postmortems ([] when it holds them all); None without the
    repository's history (an sdist)."""
    listed = _git("ls-tree", "--name-only", record["corpus"], "eval/postmortems/")
    if listed is None:
        return None
    names = {Path(line).name for line in listed.split()}
    return [f for f in record["files"] if f not in names]


def groups(data: dict) -> list[tuple[dict, tuple[str, ...]]]:
    """The file's heads by the record they were fitted with: (record, heads), the file's own record first."""
    carried = (data.get("provenance") or {}).get("carried") or {}
    own = tuple(h for h in data["heads"] if h not in carried)
    return ([(data["provenance"], own)] if own else []) + [(carried[h], (h,)) for h in data["heads"] if h in carried]


def differences(shipped: dict, rebuilt: dict, heads: tuple[str, ...] | None = None) -> list[str]:
    """Each parameter (bias, threshold, keep, weight) of `shipped`'s heads (or of `heads`) that `rebuilt` has
    otherwise, as lines; then what the provenance says about why (the rows or the corpus read)."""
    lines = []
    for head in heads or sorted(set(shipped["heads"]) | set(rebuilt["heads"])):
        a, b = shipped["heads"].get(head, {}), rebuilt["heads"].get(head, {})
        moved = [k for k in ("bias", "threshold", "keep") if a.get(k) != b.get(k)]
        wa, wb = a.get("weights", {}), b.get("weights", {})
        words = sorted(
            (k for k in set(wa) | set(wb) if wa.get(k) != wb.get(k)), key=lambda k: -abs(wa.get(k, 0) - wb.get(k, 0))
        )
        if not moved and not words:
            continue
        largest = ", ".join(f"{k} {wa.get(k, 0)} -> {wb.get(k, 0)}" for k in words[:5])
        lines.append(
            f"{head}: {len(moved) + len(words)} parameters differ ({', '.join(f'{k} {a.get(k)} -> {b.get(k)}' for k in moved) or 'bias, threshold, keep equal'}; "
            f"{len(words)} of {len(set(wa) | set(wb))} weights, {len(set(wa) - set(wb))} only shipped, {len(set(wb) - set(wa))} only rebuilt; largest {largest})"
        )
    if lines:
        told = heads or sorted(shipped["heads"])
        if any(
            record_of(shipped, h).get("files_sha256") != _rebuilt_record(rebuilt, h).get("files_sha256") for h in told
        ):
            lines.append("the reports read differ from those fitted on (files_sha256)")
        for head in sorted(told):
            pa, pb = record_of(shipped, head), _rebuilt_record(rebuilt, head)
            digest = (pa.get("rows_sha256") or {}).get(head)
            if digest is None:
                continue
            same = digest == (pb.get("rows_sha256") or {}).get(head)
            lines.append(
                f"{head}: the rows read are {'the same: the fitting itself changed' if same else 'not the same: candidates, features or labels changed'}"
                f" (fitted by code {pa.get('code')}, rebuilt by {pb.get('code')})"
            )
    return lines


def _rebuilt_record(rebuilt: dict, head: str) -> dict:
    """The record a rebuild read `head` with: its own (the file's top record) when it fitted that head, else the
    record it carried over (a rebuild of one head copies the others)."""
    top = rebuilt.get("provenance") or {}
    return top if head in (top.get("rows_sha256") or {}) else record_of(rebuilt, head)


def resolve(commit: str) -> str:
    full = _git("rev-parse", "--verify", f"{commit}^{{commit}}")
    if full is None:
        raise SystemExit(f"{commit}: no such commit in {REPOSITORY}")
    return full


def use_corpus(fitting: ModuleType, commit: str | None) -> None:
    """The fitting bench reads eval/postmortems of `commit` (extracted, never the checkout's); with None the checkout's,
    named by HEAD when it is HEAD's."""
    if commit:
        fitting.POSTMORTEMS, fitting.CORPUS[0] = corpus_at(commit), resolve(commit)
    else:
        fitting.CORPUS[0] = checkout_corpus(fitting.POSTMORTEMS)


def carried_record(shipped: dict, head: str) -> dict:
    """`head`'s own record in the file it is carried from: where it was fitted, its rows only."""
    record = {k: v for k, v in record_of(shipped, head).items() if k != "carried"}
    return {**record, "rows_sha256": {head: (record.get("rows_sha256") or {}).get(head)}} if record else {}


def as_file(fitting: ModuleType, model: SentenceModel, truths: list, docs: list, carry: tuple[str, ...] = ()) -> dict:
    """`model`, fitted by the bench `fitting` on `truths`' fold (`docs`), as its file: each head's settings and the
    file's provenance, that of the heads fitted here; a head in `carry` is copied from the shipped file with its own
    record there (`carried`: corpus, code, label rule and rows it was fitted with)."""
    shipped = json.loads(fitting.DATA.read_text(encoding="utf-8")) if carry else {}
    model.heads.update({h: SentenceModel.from_json(shipped).heads[h] for h in carry})
    fitted = [h for h in fitting.HEADS if h not in carry]
    rows = {h: rows_sha256(fitting.head_rows(docs, h)) for h in fitted}
    data = fitting.with_settings(model, carry)
    rule = ",".join(sorted({fitting.SETTINGS[h]["FIT_LABEL_RULE"] for h in fitted}))
    files = [t.file for t in truths]
    data["provenance"] = provenance(fitting.CORPUS[0], fitting.POSTMORTEMS, truths[0].fold, files, rule, rows)
    if carry:
        data["provenance"]["carried"] = {h: carried_record(shipped, h) for h in sorted(carry)}
    chosen = ", ".join(f"{h} threshold {x.threshold} keep {x.keep}" for h, x in model.heads.items())
    print(f"fitted on fold {truths[0].fold} ({len(truths)} items, corpus {fitting.CORPUS[0]}): {chosen}")
    return data


def check(fitting: ModuleType, rows_only: bool) -> int:
    """Rebuild the shipped file from its provenance (corpus commit, fold, label rule, settings) with today's code and
    print every parameter that differs: 0 when none does, 1 otherwise, 2 when the file cannot say how to rebuild it.
    A carried head is rebuilt on its own record's corpus, the others copied meanwhile."""
    shipped = json.loads(fitting.DATA.read_text(encoding="utf-8"))
    if lacks := missing(shipped):
        print(f"{fitting.DATA.name} cannot be rebuilt, it lacks: " + "; ".join(lacks))
        return 2
    if given := sorted(n for n in os.environ if n.startswith("FIT_")):
        raise SystemExit(f"--check rebuilds with the file's own settings: unset {', '.join(given)}")
    every = fitting.fold_truths
    try:
        return _check_groups(fitting, shipped, rows_only, every)
    finally:
        fitting.fold_truths = every


def _recorded_only(every: Callable[..., list], files: list[str]) -> Callable[..., list]:
    """`every` (the loader) reading the recorded `files` alone, held out today or not: a judged collection that leaves
    bench/held_out_postmortems.tsv does not change what a rebuild of a file fitted before reads."""
    named = set(files)

    def recorded(fold: str | None, **given: object) -> list:
        return [t for t in every(fold, **{**given, "include_held_out": True}) if t.file in named]

    return recorded


def _check_groups(fitting: ModuleType, shipped: dict, rows_only: bool, every: Callable[..., list]) -> int:
    lines, rows_same = [], []
    for recorded, heads in groups(shipped):
        use_corpus(fitting, recorded["corpus"])
        fitting.fold_truths = _recorded_only(every, recorded["files"])
        truths = fitting.fold_truths(recorded["fold"], folder=fitting.POSTMORTEMS)
        files = sorted(t.file for t in truths)
        if files != recorded["files"] or files_sha256(fitting.POSTMORTEMS, files) != recorded["files_sha256"]:
            print(f"the reports of {recorded['corpus']} fold {recorded['fold']} are not those recorded (files_sha256)")
        if rows_only:
            docs = fitting.documents(truths)
            same = {h: rows_sha256(fitting.head_rows(docs, h)) == recorded["rows_sha256"][h] for h in heads}
            said = ", ".join(f"{h} rows {'the same' if s else 'differ'}" for h, s in same.items())
            print(f"{said} (fitted by code {recorded['code']})")
            rows_same += same.values()
            continue
        others = tuple(h for h in shipped["heads"] if h not in heads)
        lines += differences(shipped, fitting.fitted_file(recorded["fold"], others), heads)
    if rows_only:
        return 0 if all(rows_same) else 1
    print("\n".join(lines) if lines else f"{fitting.DATA.name} rebuilds: every parameter the same")
    return 1 if lines else 0


# Run inside a tree of another commit (`rows_at`): that commit's bench reads its candidates and labels them.
_ROWS_THERE = """
import hashlib, json, sys
sys.path.insert(0, sys.argv[1])
import bench.fit_reader_sentences as f
try:  # that commit's loader, as its bench fits (held-out files out); a commit before it read truth.jsonl whole
    from bench.import_postmortems import fold_truths
    truths = fold_truths(sys.argv[2], folder=f.POSTMORTEMS)
except ImportError:
    from bot.importer.scoring import load_truth
    truths = [t for t in load_truth(f.POSTMORTEMS / "truth.jsonl") if t.fold == sys.argv[2]]
docs = f.documents(truths)
rows = {h: [(feats, f.label(t, h, c.text)) for t, cands in docs for feats, c in cands[h]] for h in f.HEADS}
print(json.dumps({h: hashlib.sha256(json.dumps(r, separators=(",", ":")).encode()).hexdigest() for h, r in rows.items()}))
"""


def rows_at(code: str, corpus: str, fold: str) -> dict[str, str]:
    """Each head's rows digest as the bench and reader of commit `code` read fold `fold` of `corpus`'s eval/postmortems
    (both extracted into a temporary tree; that commit's own defaults, so its own label rule)."""
    root = tree_at(code, corpus)
    script = root / "rows_there.py"
    script.write_text(_ROWS_THERE, encoding="utf-8")
    done = subprocess.run([sys.executable, str(script), str(root), fold], capture_output=True, text=True, cwd=root)
    if done.returncode != 0:
        raise SystemExit(done.stderr)
    return json.loads(done.stdout.strip().splitlines()[-1])


def tree_at(code: str, corpus: str) -> Path:
    """A temporary tree: commit `code` with eval/postmortems of commit `corpus`."""
    root = Path(tempfile.mkdtemp(prefix="reader-sentences-code-"))
    atexit.register(shutil.rmtree, root, True)
    for commit, paths in ((code, []), (corpus, ["eval/postmortems"])):
        if paths:
            shutil.rmtree(root / "eval" / "postmortems", ignore_errors=True)
        tree = subprocess.run(
            ["git", "-C", str(REPOSITORY), "archive", commit, *paths], capture_output=True, check=True
        )
        with tarfile.open(fileobj=io.BytesIO(tree.stdout)) as tar:
            tar.extractall(root, filter="data")
    return root


def rebuild_at_code(data: Path) -> int:
    """Rebuild the file `data` with the code that fitted it (its provenance's `code`, not today's; a carried head with
    its own record's): that commit's bench `--fold F --out` on the recorded corpus, then every parameter that differs
    (~25 min at a load of 14 a record)."""
    shipped = json.loads(data.read_text(encoding="utf-8"))
    env = {k: v for k, v in os.environ.items() if not k.startswith("FIT_")}
    for name in {n for fields in shipped["heads"].values() for n in fields.get("fitted_with", {})}:
        env[name] = ",".join(
            f"{h}={f['fitted_with'][name]}" for h, f in shipped["heads"].items() if name in f["fitted_with"]
        )
    lines = []
    for recorded, heads in groups(shipped):
        root = tree_at(recorded["code"].split("+")[0], recorded["corpus"])
        out = Path(tempfile.mkdtemp(prefix="reader-sentences-out-")) / "rebuilt.json"
        bench = root / "bench" / "fit_reader_sentences.py"
        fit = [sys.executable, str(bench), "--fold", recorded["fold"], "--out", str(out)]
        if "--carry" in bench.read_text(encoding="utf-8"):  # that bench fits only these heads: the others copied
            fit += [f"--carry={h}" for h in shipped["heads"] if h not in heads]
        subprocess.run(fit, cwd=root, env=env, check=True)
        rebuilt = json.loads(out.read_text(encoding="utf-8"))
        rebuilt.setdefault("provenance", recorded)
        if recorded is not shipped["provenance"]:  # a carried head: the rebuild's own record is its record
            rebuilt["provenance"] = {**rebuilt["provenance"], "carried": {h: rebuilt["provenance"] for h in heads}}
        lines += differences(shipped, rebuilt, heads)
        print(f"{', '.join(heads)}: rebuilt at code {recorded['code']} on corpus {recorded['corpus']}")
    print("\n".join(lines) if lines else f"{data.name} rebuilds at code: every parameter the same")
    return 1 if lines else 0


def stamp(data: Path, settings: dict[str, dict[str, str]], corpus: str, code: str, label_rule: str) -> None:
    """Write the provenance of a file fitted before provenance was recorded (bot/data/reader_sentences.json of
    c1e107a): its corpus and code commits as found by rebuilding it there (`rebuild_at_code`), the rows digest that
    code reads, and each head's settings that bench did not know (`settings`: today's defaults, e.g. FIT_OFFSET_WORDS
    "0", words as no offset, which that fit was) with FIT_LABEL_RULE `label_rule`. No parameter changes."""
    shipped = json.loads(data.read_text(encoding="utf-8"))
    postmortems = corpus_at(corpus)
    fold = shipped["fitted_on"].rsplit(" ", 1)[-1]
    files = [
        json.loads(line)["file"]
        for line in (postmortems / "truth.jsonl").read_text(encoding="utf-8").splitlines()
        if line.strip() and json.loads(line)["fold"] == fold
    ]
    for head, fields in shipped["heads"].items():
        fields["fitted_with"] = dict(
            sorted({**settings[head], **fields["fitted_with"], "FIT_LABEL_RULE": label_rule}.items())
        )
    shipped["provenance"] = provenance(
        resolve(corpus), postmortems, fold, files, label_rule, rows_at(code, corpus, fold)
    )
    shipped["provenance"]["code"] = resolve(code)
    data.write_text(json.dumps(shipped, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote the provenance of {data}: corpus {corpus}, code {code}, label rule {label_rule}")


def main(argv: list[str] | None = None) -> int:
    import argparse

    import bench.fit_reader_sentences as fitting

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rebuild-at-code", action="store_true", help="rebuild the shipped file with its own code")
    parser.add_argument("--stamp", action="store_true", help="record the provenance of a file fitted before it was")
    parser.add_argument("--corpus-at", help="with --stamp: the commit whose eval/postmortems it was fitted on")
    parser.add_argument("--code", help="with --stamp: the commit whose bench and reader fitted it")
    parser.add_argument("--label-rule", choices=LABEL_RULES, help="with --stamp: the phrase rule its labels read")
    args = parser.parse_args(argv)
    if args.stamp:
        if not (args.corpus_at and args.code and args.label_rule):
            parser.error("--stamp needs --corpus-at, --code and --label-rule")
        stamp(fitting.DATA, fitting.SETTINGS, args.corpus_at, args.code, args.label_rule)
        return 0
    if args.rebuild_at_code:
        return rebuild_at_code(fitting.DATA)
    parser.error("--stamp or --rebuild-at-code")
    return 2


if __name__ == "__main__":
    sys.exit(main())
