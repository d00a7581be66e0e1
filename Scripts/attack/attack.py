#!/usr/bin/env python3
"""Attack harness for the `tally` CLI (Python 3, standard library only).

Measures, against a built `tally` binary, how the engine behaves under:

  kill9      kill -9 of `tally apply` at random moments (acknowledged commands lost?)
  bitflip    one flipped bit anywhere in a closed ledger's segment files (detected and located?)
  truncate   segments cut below the checkpointed evidence, emptied, replaced, deleted (refused?)
  malformed  malformed command lines, CSV files and JSON backups (typed refusal, no crash?)
  crash      stdout to /dev/full, SIGPIPE, FIFOs in place of ledger files, lock-file removal
             with two writers (crashes, hangs, double acknowledgements?)

Every case is derived from (--seed, class, case index) only, so a failing case is reproduced
with the command the report prints:  attack.py --tally BIN --seed S --only CLASS --case N

See Scripts/attack/README.md for what each check means.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import os
import random
import re
import shutil
import signal
import stat
import struct
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Callable

CLASSES = ["kill9", "bitflip", "truncate", "malformed", "crash"]
READERS = ["balances", "log", "stats", "debts", "budget", "networth", "export", "replay", "audit"]
SEGMENT_HEADER = 64
FRAME_HEADER = 96
# The location an error about journal damage must give (Docs/CLI.md: "name ... the segment,
# offset and sequence number").
SEGMENT_RE = re.compile(r"\d{20}\.segment|segment[ :]+\S+", re.IGNORECASE)
SEQUENCE_RE = re.compile(r"sequence(?: number)?[ :#=]+\d+", re.IGNORECASE)
DEFAULT_TIMEOUT = 20.0


# ----------------------------------------------------------------------------------------------
# Small utilities


def crc32c(data: bytes) -> int:
    """CRC32C (Castagnoli), as the journal uses (Docs/JournalFormat.md)."""
    crc = 0xFFFFFFFF
    table = _CRC_TABLE
    for byte in data:
        crc = table[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def _crc_table() -> list[int]:
    table = []
    for i in range(256):
        crc = i
        for _ in range(8):
            crc = (crc >> 1) ^ 0x82F63B78 if crc & 1 else crc >> 1
        table.append(crc)
    return table


_CRC_TABLE = _crc_table()
assert crc32c(b"123456789") == 0xE3069283


def case_rng(seed: int, cls: str, index: int) -> random.Random:
    """The one source of randomness of a case: a pure function of seed, class and index."""
    digest = hashlib.sha256(f"{seed}:{cls}:{index}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "little"))


@dataclass
class Result:
    rc: int | None  # None = timed out (killed by the harness)
    out: bytes
    err: bytes
    seconds: float

    @property
    def timed_out(self) -> bool:
        return self.rc is None

    @property
    def crashed(self) -> bool:
        """Death by a signal: a negative return code (or >= 128 from a shell)."""
        return self.rc is not None and (self.rc < 0 or self.rc >= 128)

    @property
    def text(self) -> str:
        return (self.out + b"\n" + self.err).decode("utf-8", "replace")

    def brief(self) -> str:
        err = self.err.decode("utf-8", "replace").strip().replace("\n", " | ")
        return f"rc={self.rc} err={err[:300]!r}"


def run(args: list[str], timeout: float = DEFAULT_TIMEOUT, stdin: bytes | None = None,
        stdout: int | None = None, cwd: str | None = None, env: dict | None = None) -> Result:
    """Runs a process in its own process group; on timeout the whole group is SIGKILLed."""
    start = time.monotonic()
    proc = subprocess.Popen(args, stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
                            stdout=stdout if stdout is not None else subprocess.PIPE,
                            stderr=subprocess.PIPE, cwd=cwd, env=env, start_new_session=True)
    try:
        out, err = proc.communicate(stdin, timeout=timeout)
        rc = proc.returncode
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        rc = None
    return Result(rc, out or b"", err or b"", time.monotonic() - start)


def journal_dir(ledger: Path) -> Path:
    return ledger / "journal"


def segments(ledger: Path) -> list[Path]:
    return sorted(p for p in journal_dir(ledger).iterdir() if p.name.endswith(".segment"))


def tree_digest(ledger: Path) -> str:
    """A digest of every segment's name and bytes (to see whether a writer changed them)."""
    h = hashlib.sha256()
    for seg in segments(ledger):
        h.update(seg.name.encode())
        try:
            if seg.is_symlink() or not seg.is_file():
                h.update(b"<special>")
            else:
                h.update(seg.read_bytes())
        except OSError as error:
            h.update(repr(error).encode())
    return h.hexdigest()


def copy_ledger(src: Path, dst: Path) -> Path:
    if dst.exists():
        shutil.rmtree(dst)
    shutil.copytree(src, dst, symlinks=True)
    return dst


def located(text: str) -> bool:
    """True when an error names a segment and a sequence number."""
    return bool(SEGMENT_RE.search(text)) and bool(SEQUENCE_RE.search(text))


# ----------------------------------------------------------------------------------------------
# Realistic commands (Sources/Tally/Tally.docc/Commands.md)

ALICE = "00000002-0000-4000-8000-000000000001"
BOB = "00000002-0000-4000-8000-000000000002"
CAROL = "00000002-0000-4000-8000-000000000003"
HOUSEHOLD = "00000001-0000-4000-8000-000000000001"
JOINT = "00000003-0000-4000-8000-000000000001"
BOBCASH = "00000003-0000-4000-8000-000000000002"
EURCARD = "00000003-0000-4000-8000-000000000003"
GROCERIES = "00000004-0000-4000-8000-000000000001"
SALARY = "00000004-0000-4000-8000-000000000002"
GROUP = "00000009-0000-4000-8000-000000000001"
EPOCH = datetime(2026, 1, 3, 8, 0, tzinfo=timezone.utc)
WORDS = ("Migros Coop Denner Lidl bakery rent train tram coffee lunch dinner pharmacy cinema "
         "gift books shoes internet phone insurance ski fuel parking market cheese bread").split()


def uid(prefix: int, n: int) -> str:
    return f"{prefix:08x}-0000-4000-8000-{n:012x}"


class Generator:
    """Commands with unique ids and increasing `recordedAt`; `n` numbers them globally."""

    def __init__(self, rng: random.Random, start: int = 1):
        self.rng = rng
        self.n = start

    def _envelope(self, command: str, actor: str = ALICE) -> dict:
        n = self.n
        self.n += 1
        # One second apart from 2026-01-03T08:00Z on: `recordedAt` only ever grows, whatever
        # ranges of `n` the classes use (they stay below ~1.5 days).
        stamp = (EPOCH + timedelta(seconds=n)).strftime("%Y-%m-%dT%H:%M:%S.000Z")
        return {"command": command, "commandID": uid(0x0C, n), "actor": actor, "recordedAt": stamp}

    def setup(self) -> list[dict]:
        cmds = []
        c = self._envelope("createHousehold")
        c.update(householdID=HOUSEHOLD, name="Attack-Household", baseCurrency="CHF", adminName="Alice")
        cmds.append(c)
        c = self._envelope("addMember")
        c.update(personID=BOB, name="Bob")
        cmds.append(c)
        c = self._envelope("addPerson")
        c.update(personID=CAROL, name="Carol")
        cmds.append(c)
        for wallet, name, kind, amount, currency, owner in (
                (JOINT, "Joint account", "bank", 5_000_000, "CHF", None),
                (BOBCASH, "Bob cash", "cash", 200_000, "CHF", BOB),
                (EURCARD, "Alice EUR card", "card", 0, "EUR", ALICE)):
            c = self._envelope("openWallet")
            c.update(walletID=wallet, name=name, kind=kind,
                     openingBalance={"minorUnits": amount, "currency": currency}, openedOn="2026-01-01")
            if owner:
                c["owner"] = owner
            cmds.append(c)
        for category, name, group, shareable in ((GROCERIES, "Attack groceries", "expense", True),
                                                 (SALARY, "Attack salary", "income", False)):
            c = self._envelope("createCategory")
            c.update(categoryID=category, name=name, group=group, budgetType="needs" if group == "expense" else "none",
                     shareable=shareable)
            cmds.append(c)
        c = self._envelope("setSplitRatio")
        c.update(mode="manual", ratios=[{"person": ALICE, "basisPoints": 6000}, {"person": BOB, "basisPoints": 4000}])
        cmds.append(c)
        c = self._envelope("createGroup")
        c.update(groupID=GROUP, name="Ski weekend", members=[ALICE, BOB, CAROL])
        cmds.append(c)
        return cmds

    def activity(self) -> dict:
        """One everyday command: mostly expenses, some incomes, transfers and group expenses."""
        rng = self.rng
        roll = rng.random()
        note = " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 5)))
        date = f"2026-01-0{rng.randint(1, 3)}"
        if roll < 0.70:
            actor, wallet = rng.choice(((ALICE, JOINT), (BOB, BOBCASH), (ALICE, EURCARD)))
            c = self._envelope("recordTransaction", actor)
            currency = "EUR" if wallet == EURCARD else "CHF"
            c.update(transactionID=uid(5, c_n(c)), kind="expense",
                     amount={"minorUnits": rng.randint(100, 30_000), "currency": currency},
                     walletID=wallet, categoryID=GROCERIES, date=date, note=note, payer=actor,
                     shared=wallet != EURCARD and rng.random() < 0.5)
            if rng.random() < 0.2:
                c["tags"] = [rng.choice(WORDS)]
        elif roll < 0.80:
            c = self._envelope("recordTransaction")
            c.update(transactionID=uid(5, c_n(c)), kind="income",
                     amount={"minorUnits": rng.randint(10_000, 900_000), "currency": "CHF"},
                     walletID=JOINT, categoryID=SALARY, date=date, note=note)
        elif roll < 0.90:
            c = self._envelope("recordTransfer")
            src, dst = (JOINT, BOBCASH) if rng.random() < 0.5 else (BOBCASH, JOINT)
            c.update(transferID=uid(6, c_n(c)), fromWalletID=src, toWalletID=dst,
                     amountSent={"minorUnits": rng.randint(100, 5_000), "currency": "CHF"}, date=date, note=note)
        else:
            c = self._envelope("recordGroupExpense")
            c.update(expenseID=uid(0x0A, c_n(c)), groupID=GROUP, paidBy=rng.choice((ALICE, BOB, CAROL)),
                     amount={"minorUnits": rng.randint(300, 60_000), "currency": "CHF"}, date=date, note=note,
                     split={"kind": "equal", "people": [ALICE, BOB, CAROL]})
        return c

    def activities(self, count: int) -> list[dict]:
        return [self.activity() for _ in range(count)]


# Fields a command may omit or set to null (Sources/Tally/Tally.docc/Commands.md): mutating them does not make a
# command malformed.
OPTIONAL_FIELDS = {"note", "tags", "payer", "shared", "ratioOverride", "amountReceived", "owner"}


def c_n(command: dict) -> int:
    return int(command["commandID"].rsplit("-", 1)[1], 16)


def jsonl(commands: list[dict]) -> str:
    return "".join(json.dumps(c, ensure_ascii=False) + "\n" for c in commands)


# ----------------------------------------------------------------------------------------------
# The tally binary


class Tally:
    def __init__(self, binary: str):
        self.binary = str(Path(binary).resolve())

    def __call__(self, *args: str, timeout: float = DEFAULT_TIMEOUT, stdin: bytes | None = None,
                 stdout: int | None = None) -> Result:
        return run([self.binary, *args], timeout=timeout, stdin=stdin, stdout=stdout)

    def apply_commands(self, ledger: Path, commands: list[dict], work: Path, timeout: float = 120) -> Result:
        path = work / f"cmds-{os.getpid()}-{time.monotonic_ns()}.jsonl"
        path.write_text(jsonl(commands))
        try:
            return self("apply", "--ledger", str(ledger), str(path), timeout=timeout)
        finally:
            path.unlink(missing_ok=True)

    def reader(self, name: str, ledger: Path, timeout: float = DEFAULT_TIMEOUT) -> Result:
        """Runs one read-only subcommand the way a user would."""
        args = {"export": ["export", str(ledger), "--format", "json"]}.get(name, [name, str(ledger)])
        return self(*args, timeout=timeout)

    def events(self, ledger: Path, start: int = 1) -> tuple[Result, dict[int, str]]:
        """sequence number -> commandID, from `tally log --json` (from sequence `start` on)."""
        res = self("log", str(ledger), "--json", "--from", str(start), timeout=120)
        events: dict[int, str] = {}
        if res.rc == 0:
            for line in res.out.decode("utf-8", "replace").splitlines():
                if line.strip():
                    obj = json.loads(line)
                    events[int(obj["sequenceNumber"])] = obj["commandID"]
        return res, events


def parse_acks(stdout: bytes) -> list[tuple[int, list[int]]]:
    """(line number, sequence numbers) of every complete `"status":"ok"` line."""
    acks = []
    data = stdout.decode("utf-8", "replace")
    lines = data.split("\n")
    if not data.endswith("\n"):
        lines = lines[:-1]  # a line without its newline may be cut: not counted
    for line in lines:
        try:
            obj = json.loads(line)
        except ValueError:
            continue
        if obj.get("status") == "ok":
            acks.append((int(obj["line"]), [int(s) for s in obj.get("sequenceNumbers", [])]))
    return acks


# ----------------------------------------------------------------------------------------------
# Journal surgery (Docs/JournalFormat.md)


@dataclass
class Frame:
    offset: int
    length: int  # header + stored payload
    first_seq: int
    count: int
    chain: bytes


def parse_frames(data: bytes) -> list[Frame]:
    frames, offset = [], SEGMENT_HEADER
    while offset + FRAME_HEADER <= len(data) and data[offset:offset + 4] == b"TFRM":
        stored = struct.unpack_from("<I", data, offset + 8)[0]
        first_seq, count = struct.unpack_from("<QI", data, offset + 16)
        chain = data[offset + 60:offset + 92]
        if offset + FRAME_HEADER + stored > len(data):
            break
        frames.append(Frame(offset, FRAME_HEADER + stored, first_seq, count, chain))
        offset += FRAME_HEADER + stored
    return frames


def segment_header(first_seq: int, chain: bytes, flags: int = 0) -> bytes:
    head = b"TALLYSEG" + struct.pack("<HHIQ", 1, flags, 0, first_seq) + chain + struct.pack("<I", 0)
    return head + struct.pack("<I", crc32c(head))


# CSV inputs among the "malformed" ones that are valid and must import (see malformed_csv).
VALID_CSV_CASES = {"BOM before header"}

def resegment(ledger: Path, pieces: int, rng: random.Random) -> None:
    """Splits a one-segment journal into `pieces` segments at frame boundaries, exactly as a
    writer with a small `segmentBytesMax` would have rotated (header = first sequence + chain
    value of the previous segment's last frame). Sealed segments can then be attacked without
    writing 64 MiB (the CLI has no segment-size option)."""
    (seg,) = segments(ledger)
    data = seg.read_bytes()
    flags = struct.unpack_from("<H", data, 10)[0]
    frames = parse_frames(data)
    if len(frames) < pieces:
        raise RuntimeError("not enough frames to resegment")
    cuts = sorted(rng.sample(range(1, len(frames)), pieces - 1))
    bounds = [0, *cuts, len(frames)]
    seg.unlink()
    chain = bytes(32)
    for lo, hi in zip(bounds, bounds[1:]):
        part = frames[lo:hi]
        first = part[0].first_seq
        body = data[part[0].offset:part[-1].offset + part[-1].length]
        segment = journal_dir(ledger) / f"{first:020d}.segment"
        segment.write_bytes(segment_header(first, chain, flags) + body)
        segment.chmod(0o600)  # as tally creates them (audit reports wider modes)
        chain = part[-1].chain


def all_frames(ledger: Path) -> list[tuple[Path, Frame]]:
    return [(seg, f) for seg in segments(ledger) for f in parse_frames(seg.read_bytes())]


# ----------------------------------------------------------------------------------------------
# Reporting


@dataclass
class ClassReport:
    name: str
    title: str
    target: str
    metric: str = ""
    passed: bool = False
    total: int = 0
    good: int = 0
    seconds: float = 0.0
    details: dict = field(default_factory=dict)
    failures: list[dict] = field(default_factory=list)

    def fail(self, case: int, kind: str, detail: str, repro: str) -> None:
        self.failures.append({"case": case, "kind": kind, "detail": detail, "reproduce": repro})


class Harness:
    def __init__(self, args: argparse.Namespace):
        self.args = args
        self.tally = Tally(args.tally)
        self.seed = args.seed
        self.root = Path(tempfile.mkdtemp(prefix="tally-attack-", dir=args.workdir))
        self.templates: dict[str, Path] = {}
        self.log_lock = threading.Lock()

    # -- helpers ---------------------------------------------------------------------------

    def say(self, text: str) -> None:
        with self.log_lock:
            print(text, flush=True)

    def repro(self, cls: str, case: int) -> str:
        return (f"python3 Scripts/attack/attack.py --tally {self.tally.binary} --seed {self.seed} "
                f"--only {cls} --case {case}")

    def cases(self, count: int) -> list[int]:
        return [self.args.case] if self.args.case is not None else list(range(count))

    def template(self, name: str, build: Callable[[Path], None]) -> Path:
        """A ledger built once per harness run (deterministically from the seed), copied per case."""
        if name not in self.templates:
            path = self.root / "templates" / name
            path.parent.mkdir(parents=True, exist_ok=True)
            build(path)
            self.templates[name] = path
        return self.templates[name]

    def build_ledger(self, path: Path, activity: int, batches: int, tag: str) -> None:
        """A closed ledger: setup, then `activity` commands over `batches` apply runs (so a
        checkpoint exists and the journal holds one frame per command)."""
        gen = Generator(case_rng(self.seed, "template-" + tag, 0))
        commands = gen.setup() + gen.activities(activity)
        work = self.root / "work"
        work.mkdir(exist_ok=True)
        step = max(1, len(commands) // batches)
        for i in range(0, len(commands), step):
            res = self.tally.apply_commands(path, commands[i:i + step], work)
            if res.rc != 0:
                raise RuntimeError(f"building template {tag}: apply failed: {res.brief()} {res.out[-500:]!r}")
        check = self.tally("audit", str(path), timeout=60)
        if check.rc != 0:
            raise RuntimeError(f"template {tag} does not audit clean: {check.text[:1000]}")

    SEGMENT_BYTES_MAX = 64 << 20  # LedgerOptions.segmentBytesMax; the CLI cannot change it

    def build_near_full(self, path: Path) -> None:
        """A ledger whose only segment is 20-60 KiB short of 64 MiB, so that an `apply` of
        small commands rotates to a new segment within its first ~100 commands. Filled with
        atomic batches of commands carrying 4000-byte incompressible notes."""
        rng = case_rng(self.seed, "template-rotation", 0)
        work = self.root / "work"
        work.mkdir(exist_ok=True)
        gen = Generator(rng)
        res = self.tally.apply_commands(path, gen.setup(), work)
        if res.rc != 0:
            raise RuntimeError(f"rotation template setup: {res.brief()}")
        gen.n = 20_000
        per_command = 4400.0
        target = self.SEGMENT_BYTES_MAX - rng.randint(20_000, 60_000)
        while True:
            (seg,) = segments(path)
            size = seg.stat().st_size
            missing = target - size
            count = min(3000, int(missing / per_command))
            if count < 1:
                break
            batch = []
            for _ in range(count):
                c = gen.activity()
                c["note"] = base64.b64encode(rng.randbytes(3000)).decode()
                batch.append(c)
            file = work / "rotation-batch.jsonl"
            file.write_text(jsonl(batch))
            res = self.tally("apply", "--atomic", "--ledger", str(path), str(file), timeout=600)
            if res.rc != 0:
                raise RuntimeError(f"rotation template batch: {res.brief()} {res.out[-300:]!r}")
            per_command = (seg.stat().st_size - size) / count
        if len(segments(path)) != 1:
            raise RuntimeError("rotation template rotated while being built")

    # -- class 1: kill -9 ------------------------------------------------------------------

    def kill9(self) -> ClassReport:
        rep = ClassReport("kill9", "kill -9 durability", "0 acknowledged commands lost",
                          metric="acknowledged commands lost")
        base = self.template("kill9", lambda p: self.build_ledger(p, 40, 2, "kill9"))
        near_full = (self.template("kill9-rotation", self.build_near_full)
                     if self.args.rotation_share > 0 else None)
        # One command file shared by all runs (each run starts from a fresh copy of a template).
        gen = Generator(case_rng(self.seed, "kill9-file", 0), start=40_000)
        commands = gen.activities(self.args.kill_commands)
        cmd_file = self.root / "kill9-commands.jsonl"
        cmd_file.write_text(jsonl(commands))
        ids = {i + 1: c["commandID"] for i, c in enumerate(commands)}
        extra = Generator(case_rng(self.seed, "kill9-extra", 0), start=50_000).activities(1)
        runs = self.cases(self.args.kill_runs)
        acked_total = lost_total = 0
        startup_kills = rotation_runs = rotation_reached = 0
        for n, case in enumerate(runs):
            rng = case_rng(self.seed, "kill9", case)
            # 10% of kills land while the process starts (open, recovery); the rest while it appends.
            delay = rng.uniform(0, 0.04) if rng.random() < 0.1 else rng.uniform(0.04, self.args.kill_max_delay)
            rotation = near_full is not None and rng.random() < self.args.rotation_share
            if rotation:
                delay = rng.uniform(0.0, 0.25)
            ledger = copy_ledger(near_full if rotation else base, self.root / "kill9-run")
            if rotation:
                os.sync()  # the 64 MiB copy must not slow the writer's fdatasync down
            # Successive kills on one ledger model a crash during recovery of the previous crash.
            kills = 1 + (rng.random() < 0.2)
            acked: dict[int, list[int]] = {}
            for _ in range(kills):
                proc = subprocess.Popen([self.tally.binary, "apply", "--ledger", str(ledger), str(cmd_file)],
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, start_new_session=True)
                head = b""
                if rotation:
                    # Opening 64 MiB takes a while: the delay counts from the first acknowledgement,
                    # so the kill lands within the first ~300 commands, around the rotation.
                    head = proc.stdout.readline()
                time.sleep(delay)
                proc.send_signal(signal.SIGKILL)
                out, _ = proc.communicate()
                out = head + out
                run_acks = parse_acks(out)
                if not run_acks:
                    startup_kills += 1
                for line, seqs in run_acks:
                    acked.setdefault(line, seqs)  # second run: duplicates are rejected, not acked
                delay = rng.uniform(0, 0.25 if rotation else self.args.kill_max_delay)
            acked_total += len(acked)
            if rotation:
                rotation_runs += 1
                rotated = len(segments(ledger)) > 1 or any(journal_dir(ledger).glob("*.segment.tmp"))
                rotation_reached += rotated
            problems = self._check_after_kill(ledger, acked, ids, extra)
            rep.total += 1
            if problems:
                lost = sum(1 for p in problems if p.startswith("lost"))
                lost_total += lost
                rep.fail(case, "lost" if lost else "other", "; ".join(problems)[:1500], self.repro("kill9", case))
            else:
                rep.good += 1
            if (n + 1) % 100 == 0:
                self.say(f"  kill9: {n + 1}/{len(runs)} runs, {acked_total} acks, {lost_total} lost, "
                         f"{len(rep.failures)} failing runs")
        rep.details = {"runs": rep.total, "acknowledged": acked_total, "lost": lost_total,
                       "runs killed before the first ack": startup_kills,
                       "commands per file": len(commands),
                       "runs on a 64 MiB segment about to rotate": rotation_runs,
                       "of which killed after the rotation had started": rotation_reached}
        rep.passed = lost_total == 0 and not rep.failures
        rep.metric = f"{lost_total} of {acked_total} acknowledged commands lost; {len(rep.failures)} of {rep.total} runs failing"
        return rep

    def _check_after_kill(self, ledger: Path, acked: dict[int, list[int]], ids: dict[int, str],
                          extra: list[dict]) -> list[str]:
        problems = []
        start = min((s for seqs in acked.values() for s in seqs), default=1)
        res, events = self.tally.events(ledger, start)
        if res.rc != 0:
            problems.append(f"log after kill: {res.brief()}")
        for line, seqs in sorted(acked.items()):
            for seq in seqs:
                if events.get(seq) != ids[line]:
                    problems.append(f"lost: line {line} acknowledged as sequence {seq}, log has {events.get(seq)}")
        # The ledger opens again for writing; the new command lands after everything acknowledged.
        res = self.tally.apply_commands(ledger, extra, self.root / "work", timeout=60)
        if res.rc != 0:
            problems.append(f"apply after kill: {res.brief()}")
        audit = self.tally("audit", str(ledger), timeout=60)
        if audit.rc != 0:
            problems.append(f"audit after recovery: {audit.brief()} {audit.out[-400:]!r}")
        res, events = self.tally.events(ledger, start)
        for line, seqs in sorted(acked.items()):
            for seq in seqs:
                if events.get(seq) != ids[line]:
                    problems.append(f"lost after reopen: line {line} sequence {seq}")
        return problems

    # -- class 2: bit flips ----------------------------------------------------------------

    def bitflip(self) -> ClassReport:
        rep = ClassReport("bitflip", "single-bit flips", "100% detected by every reader and the writer, "
                          "each naming segment and sequence", metric="")
        def build(path: Path) -> None:
            self.build_ledger(path, 30, 4, "bitflip")
            resegment(path, 3, case_rng(self.seed, "bitflip-segments", 0))
            audit = self.tally("audit", str(path))
            if audit.rc != 0:
                raise RuntimeError(f"resegmented template does not audit clean: {audit.text[:800]}")
        base = self.template("bitflip", build)
        regions = ["segment header", "frame header", "payload", "last frame", "sealed segment"]
        by_region = {r: [0, 0, 0] for r in regions}  # detected by all, also located by all, total
        by_tool = {t: [0, 0] for t in READERS + ["apply"]}  # refused, refused with segment + sequence
        detected = 0
        extra = Generator(case_rng(self.seed, "bitflip-extra", 0), start=60_000).activities(1)
        for case in self.cases(self.args.flips):
            rng = case_rng(self.seed, "bitflip", case)
            region = regions[case % len(regions)]
            ledger = copy_ledger(base, self.root / "bitflip-run")
            frames = all_frames(ledger)
            segs = segments(ledger)
            if region == "segment header":
                seg, offset = rng.choice(segs), rng.randrange(SEGMENT_HEADER)
            elif region in ("frame header", "payload"):
                seg, fr = rng.choice(frames)
                offset = fr.offset + (rng.randrange(FRAME_HEADER) if region == "frame header"
                                      else rng.randrange(FRAME_HEADER, fr.length))
            elif region == "last frame":
                seg, fr = frames[-1]
                offset = fr.offset + rng.randrange(fr.length)
            else:
                seg = rng.choice(segs[:-1])
                offset = rng.randrange(seg.stat().st_size)
            bit = rng.randrange(8)
            data = bytearray(seg.read_bytes())
            data[offset] ^= 1 << bit
            seg.write_bytes(bytes(data))
            where = f"{region}: {seg.name} byte {offset} bit {bit}"
            misses, unlocated = [], []
            for tool in READERS:
                res = self.tally.reader(tool, ledger)
                if res.rc not in (0, None) and not res.crashed:
                    by_tool[tool][0] += 1
                    if located(res.text):
                        by_tool[tool][1] += 1
                    else:
                        unlocated.append(f"{tool}: {res.brief()[:200]}")
                else:
                    misses.append(f"{tool}: {res.brief()[:200]}")
            before = tree_digest(ledger)
            res = self.tally.apply_commands(ledger, extra, self.root / "work")
            after = tree_digest(ledger)
            if res.rc not in (0, None) and not res.crashed and before == after:
                by_tool["apply"][0] += 1
                if located(res.text):
                    by_tool["apply"][1] += 1
                else:
                    unlocated.append(f"apply: {res.brief()[:200]}")
            else:
                changed = "segments changed" if before != after else "segments unchanged"
                misses.append(f"apply: {res.brief()[:200]} ({changed})")
            rep.total += 1
            by_region[region][2] += 1
            if not misses:
                by_region[region][0] += 1
                detected += 1
            if not misses and not unlocated:
                rep.good += 1
                by_region[region][1] += 1
            else:
                kind = f"{region}: {'missed' if misses else 'not located'}"
                text = " || ".join(["MISSED " + m for m in misses] + ["UNLOCATED " + u for u in unlocated])
                rep.fail(case, kind, where + " -> " + text, self.repro("bitflip", case))
        rep.details = {
            "by region (detected by all tools / also located by all / total)":
                {k: f"{v[0]}/{v[1]}/{v[2]}" for k, v in by_region.items()},
            "by tool (refused / refused naming segment and sequence)":
                {k: f"{v[0]}/{v[1]}" for k, v in by_tool.items()},
            "tools": "readers: " + ", ".join(READERS) + "; writer: apply (must refuse and change nothing)"}
        rep.passed = rep.good == rep.total
        rep.metric = (f"{detected}/{rep.total} flips detected by all 9 readers and refused by apply; "
                      f"{rep.good}/{rep.total} also named segment + sequence everywhere")
        return rep

    # -- class 3: truncation below evidence --------------------------------------------------

    def truncate(self) -> ClassReport:
        rep = ClassReport("truncate", "truncation below evidence", "100% refused (non-zero exit with a message)")
        base = self.template("truncate", lambda p: self.build_ledger(p, 30, 3, "truncate"))
        kinds = ["cut below checkpoint", "cut below checkpoint", "cut below checkpoint",
                 "empty segment", "segment -> /dev/zero", "segments deleted"]
        tools = ["apply", "balances", "log", "stats", "replay", "audit"]
        by_kind = {k: [0, 0] for k in dict.fromkeys(kinds)}
        by_tool = {t: 0 for t in tools}
        extra = Generator(case_rng(self.seed, "truncate-extra", 0), start=61_000).activities(1)
        if not (base / "read-side" / "read-side.sqlite").exists():
            raise RuntimeError("truncate template has no store (with its checkpoint)")
        for case in self.cases(self.args.truncations):
            rng = case_rng(self.seed, "truncate", case)
            kind = kinds[case % len(kinds)]
            ledger = copy_ledger(base, self.root / "truncate-run")
            (seg,) = segments(ledger)
            size = seg.stat().st_size
            if kind == "cut below checkpoint":
                # The checkpoint covers the last frame (written at close): every offset is below it.
                offset = rng.randrange(0, size)
                with open(seg, "r+b") as f:
                    f.truncate(offset)
                where = f"{seg.name} cut to {offset} of {size} bytes"
            elif kind == "empty segment":
                seg.write_bytes(b"")
                where = f"{seg.name} emptied"
            elif kind == "segment -> /dev/zero":
                seg.unlink()
                seg.symlink_to("/dev/zero")
                where = f"{seg.name} -> /dev/zero"
            else:
                for s in segments(ledger):
                    s.unlink()
                where = "every segment deleted"
            misses = []
            for tool in tools:
                if tool == "apply":
                    res = self.tally.apply_commands(ledger, extra, self.root / "work")
                    # exit 1 = the command was processed and rejected: the ledger was opened.
                    refused = res.rc == 2 and bool(res.err.strip())
                elif tool == "audit":
                    res = self.tally.reader(tool, ledger)
                    # exit 1 = problems found and listed on stdout: a refusal to call it clean.
                    refused = res.rc in (1, 2) and bool(res.text.strip())
                else:
                    res = self.tally.reader(tool, ledger)
                    refused = res.rc not in (0, None) and bool(res.err.strip())
                if refused and not res.crashed:
                    by_tool[tool] += 1
                else:
                    state = "hang" if res.timed_out else ("crash" if res.crashed else "opened silently")
                    misses.append(f"{tool}: {state} {res.brief()[:160]}")
                # apply on a fresh copy each time would hide what a reader sees after a writer
                # "recovered": we keep the order users would meet (writer first).
            rep.total += 1
            by_kind[kind][1] += 1
            if misses:
                rep.fail(case, kind, where + " -> " + " || ".join(misses), self.repro("truncate", case))
            else:
                rep.good += 1
                by_kind[kind][0] += 1
        rep.details = {"by kind (refused by every tool/total)": {k: f"{v[0]}/{v[1]}" for k, v in by_kind.items()},
                       "by tool (refused)": {k: f"{v}/{rep.total}" for k, v in by_tool.items()},
                       "order": "apply runs first, then the readers on what it left"}
        rep.passed = rep.good == rep.total
        rep.metric = f"{rep.good}/{rep.total} damaged ledgers refused by apply and every reader"
        return rep

    # -- class 4: malformed inputs -----------------------------------------------------------

    def malformed_lines(self) -> list[tuple[str, bytes]]:
        """(label, line bytes) of ~250 malformed commands, deterministic from the seed."""
        rng = case_rng(self.seed, "malformed-lines", 0)
        gen = Generator(rng, start=70_000)

        def tx(**over) -> dict:
            c = gen._envelope("recordTransaction")
            c.update(transactionID=uid(5, c_n(c)), kind="expense", amount={"minorUnits": 1234, "currency": "CHF"},
                     walletID=JOINT, categoryID=GROCERIES, date="2026-01-02", note="attack")
            c.update(over)
            return c

        def enc(obj) -> bytes:
            return json.dumps(obj, ensure_ascii=False).encode()

        cases: list[tuple[str, bytes]] = []
        bad_money = [1.0, 12.5, 1e2, 0.99999999999999999, 1e308, -0.0, 9223372036854775807,
                     9223372036854775808, -9223372036854775809, 10**30, 10**15 + 1, -5, 0, True, None, "12",
                     [], {}]
        for v in bad_money:
            cases.append((f"minorUnits {v!r}", enc(tx(amount={"minorUnits": v, "currency": "CHF"}))))
            cases.append((f"amount bare {v!r}", enc(tx(amount=v))))
        raw_numbers = ["1.0", "1e2", "0.99999999999999999", "1E400", "-0", "00012", "+12", ".5", "1.", "NaN",
                       "Infinity", "0x10", "1_000", "99999999999999999999999999999"]
        for v in raw_numbers:
            line = enc(tx()).replace(b'"minorUnits": 1234', b'"minorUnits": ' + v.encode())
            cases.append((f"raw minorUnits {v}", line))
        for s in ["CHF 1.001", "CHF 1e2", "CHF 0.99999999999999999", "CHF", "12.34", "ZZZ 12.34", "BTC 1.00",
                  "chf 12.34", "CHF -12.34", "CHF 92233720368547758.07", "CHF 1'2'3.4.5", "CHF 12,34,56.7",
                  "CHF\u00a012.34", "CHF 12.34 EUR", "", " ", "CHF 1" + "0" * 400, "CHF ١٢٣"]:
            cases.append((f"money string {s[:30]!r}", enc(tx(amount=s))))
        for cur in ["ZZZ", "BTC", "chf", "CH", "CHFF", "", "EUR\u0000", "123", None, 7]:
            cases.append((f"currency {cur!r}", enc(tx(amount={"minorUnits": 100, "currency": cur}))))
        base = enc(tx())
        cases += [
            ("duplicate key amount", base[:-1] + b', "amount": {"minorUnits": 999999, "currency": "CHF"}}'),
            ("duplicate key command", base[:-1] + b', "command": "recordTransfer"}'),
            ("duplicate key commandID", base[:-1] + b', "commandID": "' + uid(0x0C, 1).encode() + b'"}'),
            ("trailing comma object", base[:-1] + b",}"),
            ("trailing comma array", enc(tx(tags=["a"])).replace(b'["a"]', b'["a",]')),
            ("single quotes", base.replace(b'"', b"'")),
            ("unquoted key", base.replace(b'"note"', b"note")),
            ("comment inside", base[:-1] + b" /* x */}"),
            ("truncated object", base[: len(base) // 2]),
            ("empty object", b"{}"),
            ("array not object", b"[" + base + b"]"),
            ("bare string", b'"recordTransaction"'),
            ("null", b"null"),
            ("raw NUL byte", base.replace(b"attack", b"att\x00ck")),
            ("invalid UTF-8 in note", base.replace(b"attack", b"att\xff\xfeck")),
            ("overlong UTF-8", base.replace(b"attack", b"\xc0\xafattack")),
            ("lone surrogate escape", base.replace(b"attack", b"\\ud800attack")),
            ("UTF-16 LE line", base.decode().encode("utf-16-le")),
            ("deep nesting 10000 arrays", base[:-1] + b', "note": ' + b"[" * 10000 + b"]" * 10000 + b"}"),
            ("deep nesting 100000 objects", b'{"a":' * 100000 + b"1" + b"}" * 100000),
            ("huge note 5 KiB", enc(tx(note="x" * 5000))),
            ("huge note 300 KiB (over line limit)", enc(tx(note="x" * 300_000))),
            ("huge string field name", base[:-1] + b', "' + b"k" * 200_000 + b'": 1}'),
            ("huge tags", enc(tx(tags=["t"] * 100))),
            ("huge tag", enc(tx(tags=["t" * 1000]))),
            ("name over 200 bytes", enc({**tx(), "command": "addPerson", "personID": uid(2, 99), "name": "n" * 300})),
            ("unknown command", enc({**tx(), "command": "recordExpense"})),
            ("unknown field", enc(tx(shard=True))),
            ("nested unknown field", enc(tx(amount={"minorUnits": 5, "currency": "CHF", "cents": 5}))),
            ("bad uuid", enc(tx(walletID="not-a-uuid"))),
            ("bad date", enc(tx(date="2026-02-30"))),
            ("bad date format", enc(tx(date="02.01.2026"))),
            ("bad recordedAt", enc(tx(recordedAt="yesterday"))),
            ("recordedAt year 99999", enc(tx(recordedAt="99999-01-01T00:00:00Z"))),
            ("kind wrong type", enc(tx(kind=1))),
            ("shared as string", enc(tx(shared="yes"))),
            ("ratioOverride over 100%", enc(tx(shared=True, ratioOverride=[{"person": ALICE, "basisPoints": 9000},
                                                                           {"person": BOB, "basisPoints": 9000}]))),
            ("ratioOverride huge basis points", enc(tx(shared=True, ratioOverride=[
                {"person": ALICE, "basisPoints": 2**63}, {"person": BOB, "basisPoints": -(2**63) + 10000}]))),
            ("unknown wallet", enc(tx(walletID=uid(3, 999)))),
            ("wrong currency for wallet", enc(tx(amount={"minorUnits": 100, "currency": "EUR"}))),
        ]
        # Group expenses whose exact split sums overflow or do not match.
        for label, amounts in [
                ("split sums overflow Int64", [2**62, 2**62, 2**62]),
                ("split amounts near Int64.max", [9223372036854775807, 1, 1]),
                ("split negative share", [-100, 200, 100]),
                ("split does not sum", [100, 100, 50]),
                ("split amount float", [100.5, 99.5, 100])]:
            c = gen._envelope("recordGroupExpense")
            c.update(expenseID=uid(0x0A, c_n(c)), groupID=GROUP, paidBy=ALICE,
                     amount={"minorUnits": 300, "currency": "CHF"}, date="2026-01-02",
                     split={"kind": "exact", "amounts": [{"person": p, "amount": {"minorUnits": a, "currency": "CHF"}}
                                                         for p, a in zip((ALICE, BOB, CAROL), amounts)]})
            cases.append((label, enc(c)))
        c = gen._envelope("recordGroupExpense")
        c.update(expenseID=uid(0x0A, c_n(c)), groupID=GROUP, paidBy=ALICE, amount={"minorUnits": 300, "currency": "CHF"},
                 date="2026-01-02", split={"kind": "shares", "weights": [{"person": ALICE, "weight": 2**63 - 1},
                                                                         {"person": BOB, "weight": 2**63 - 1}]})
        cases.append(("share weights overflow", enc(c)))
        c = gen._envelope("setExchangeRate")
        for rate in ["0.123456789", "1e3", "-1", "0", "NaN", 1.5, "99999999999999999999"]:
            d = dict(c, commandID=uid(0x0C, gen.n), base="EUR", quote="CHF", rate=rate, asOf="2026-01-01")
            gen.n += 1
            cases.append((f"exchange rate {rate!r}", enc(d)))
        # Random mutations of valid commands up to ~250 cases.
        valid = [gen.activity() for _ in range(40)]
        while len(cases) < self.args.malformed_lines:
            src = enc(rng.choice(valid))
            op = rng.randrange(5)
            if op == 0:  # cut
                line, label = src[: rng.randrange(1, len(src))], "random cut"
            elif op == 1:  # byte replaced by a structural or invalid byte
                i = rng.randrange(len(src))
                line = src[:i] + bytes([rng.choice(b'{}[]",:\\\x00\xff')]) + src[i + 1:]
                label = f"random byte at {i}"
                try:
                    json.loads(line)
                    continue  # still valid JSON (e.g. a character inside a note): not malformed
                except ValueError:
                    pass
            elif op == 2:  # a field removed
                obj = json.loads(src)
                key = rng.choice([k for k in obj if k != "command"])
                del obj[key]
                line, label = enc(obj), f"missing field {key}"
            elif op == 3:  # a field of the wrong type
                obj = json.loads(src)
                key = rng.choice([k for k in obj if k not in OPTIONAL_FIELDS])
                value = rng.choice([None, 1.5, -1, [], {}, "", True])
                obj[key] = value
                line, label = enc(obj), f"wrong type for {key}: {value!r}"
            else:  # an amount field replaced by a fraction/exponent in raw JSON
                number = rng.choice([b"1.5", b"2e3", b"1E-2", b"7.0"])
                line = re.sub(rb'"minorUnits": \d+', b'"minorUnits": ' + number, src, count=1)
                label = f"minorUnits {number.decode()}"
                if line == src:
                    continue
            # A mutation can leave a valid command (e.g. an optional field removed): skip those.
            if label.startswith("missing field") and label.split()[-1] in OPTIONAL_FIELDS:
                continue
            cases.append((label, line))
        return cases

    def malformed(self) -> ClassReport:
        rep = ClassReport("malformed", "malformed inputs", "100% refused with a documented code and a message, 0 crashes")
        base = self.template("malformed", lambda p: self.build_ledger(p, 10, 1, "malformed"))
        ledger = copy_ledger(base, self.root / "malformed-run")
        work = self.root / "work"
        crashes = 0
        groups = {"command lines": [0, 0], "csv imports": [0, 0], "json backups": [0, 0]}
        lines = self.malformed_lines()
        case_ids: list[tuple[str, int]] = [("line", i) for i in range(len(lines))]
        csv_cases = self.malformed_csv()
        case_ids += [("csv", i) for i in range(len(csv_cases))]
        backup_cases = self.malformed_backups(base)
        case_ids += [("backup", i) for i in range(len(backup_cases))]
        selected = range(len(case_ids)) if self.args.case is None else [self.args.case]
        for case in selected:
            kind, i = case_ids[case]
            if kind == "line":
                label, payload = lines[i]
                path = work / "malformed.jsonl"
                path.write_bytes(payload + b"\n")
                before = tree_digest(ledger)
                res = self.tally("apply", "--ledger", str(ledger), str(path))
                changed = tree_digest(ledger) != before
                refused = (res.rc in (1, 2) and not changed and
                           (b'"status":"invalid"' in res.out or b'"status":"rejected"' in res.out or res.err.strip()))
                group = "command lines"
                if changed:
                    ledger = copy_ledger(base, self.root / "malformed-run")  # keep later cases independent
            elif kind == "csv":
                label, payload = csv_cases[i]
                path = work / "malformed.csv"
                path.write_bytes(payload)
                target = copy_ledger(base, self.root / "malformed-csv")
                before = tree_digest(target)
                res = self.tally("import", "csv", str(path), "--ledger", str(target), "--wallet", "Joint account",
                                 "--default-category", "Attack groceries", "--recorded-at", "2026-01-20T10:00:00Z")
                changed = tree_digest(target) != before
                if label in VALID_CSV_CASES:
                    # Valid input the issue found mishandled: it must import, exactly one row.
                    refused = res.rc == 0 and changed and res.out.count(b'"status":"inserted"') == 1
                else:
                    refused = res.rc in (1, 2) and not changed and bool(res.err.strip() or b"failed" in res.out)
                group = "csv imports"
            else:
                label, payload = backup_cases[i]
                path = work / "malformed-backup.json"
                path.write_bytes(payload)
                target = self.root / "malformed-restore"
                if target.exists():
                    shutil.rmtree(target)
                res = self.tally("import", "backup", str(path), "--ledger", str(target))
                refused = res.rc in (1, 2) and bool(res.err.strip()) and not target.exists()
                group = "json backups"
            crashed = res.crashed or res.timed_out
            crashes += crashed
            groups[group][1] += 1
            rep.total += 1
            if refused and not crashed:
                groups[group][0] += 1
                rep.good += 1
            else:
                verdict = "CRASH" if res.crashed else "HANG" if res.timed_out else "accepted"
                out = res.out.decode("utf-8", "replace")[:200]
                rep.fail(case, verdict, f"{group}: {label}: {verdict} {res.brief()[:300]} stdout={out!r}",
                         self.repro("malformed", case))
        rep.details = {"refused/total": {k: f"{v[0]}/{v[1]}" for k, v in groups.items()}, "crashes": crashes}
        rep.passed = rep.good == rep.total and crashes == 0
        rep.metric = f"{rep.good}/{rep.total} refused, {crashes} crashes"
        return rep

    # CSV cases that are valid input (the issue found them mishandled: a BOM gave
    # csvColumnMissing); they count as handled when the row imports, not when it is refused.
    def malformed_csv(self) -> list[tuple[str, bytes]]:
        head = b"date,type,category,amount,note\n"
        row = b"2026-01-02,expense,Attack groceries,"
        return [
            ("unbalanced quote", head + row + b'12.50,"never closed\n'),
            ("BOM before header", b"\xef\xbb\xbf" + head + row + b"12.50,bom\n"),
            ("amount 1,2,3 quoted", head + row + b'"1,2,3",x\n'),
            ("amount 1.2.3", head + row + b"1.2.3,x\n"),
            ("amount 1.-5", head + row + b"1.-5,x\n"),
            ("amount 1.+5", head + row + b"1.+5,x\n"),
            ("amount over Int64", head + row + b"92233720368547758.99,x\n"),
            ("amount 1e2", head + row + b"1e2,x\n"),
            ("amount 0.999", head + row + b"0.999,x\n"),
            ("amount empty", head + row + b",x\n"),
            ("amount huge digits", head + row + b"9" * 500 + b",x\n"),
            ("amount ZZZ prefix", head + row + b"ZZZ 12.50,x\n"),
            ("amount BTC prefix", head + row + b"BTC 12.50,x\n"),
            ("date 2026-02-30", head + b"2026-02-30,expense,Attack groceries,12.50,x\n"),
            ("empty file", b""),
            ("no header match", b"a,b,c\n1,2,3\n"),
            ("ragged rows", head + row + b"12.50,x,extra,extra\n"),
            ("invalid UTF-8", head + row + b"12.50,\xff\xfe\n"),
            ("binary garbage", bytes(random.Random(self.seed).randrange(256) for _ in range(2000))),
            ("unknown category", head + b"2026-01-02,expense,Nope,12.50,x\n"),
            ("type neither", head + b"2026-01-02,gift,Attack groceries,12.50,x\n"),
        ]

    def malformed_backups(self, base: Path) -> list[tuple[str, bytes]]:
        res = self.tally("export", str(base), "--format", "json", timeout=60)
        if res.rc != 0:
            raise RuntimeError(f"export --format json failed: {res.brief()}")
        good = res.out
        doc = json.loads(good)
        rng = case_rng(self.seed, "malformed-backups", 0)
        cases: list[tuple[str, bytes]] = [("empty file", b""), ("whitespace", b"  \n"), ("null", b"null"),
                                          ("array", b"[]")]
        for k in range(6):
            cut = rng.randrange(1, len(good))
            cases.append((f"truncated at {cut}", good[:cut]))
        records = [(bi, ri) for bi, b in enumerate(doc["batches"]) for ri, _ in enumerate(b["records"])]
        for k in range(10):
            d = json.loads(good)
            bi, ri = rng.choice(records)
            rec = d["batches"][bi]["records"][ri]
            payload = bytearray(base64.b64decode(rec["payload"]))
            pos = rng.randrange(len(payload))
            payload[pos] ^= 1 << rng.randrange(8)
            rec["payload"] = base64.b64encode(bytes(payload)).decode()
            cases.append((f"payload bit flipped (seq {rec['sequenceNumber']} byte {pos})", json.dumps(d).encode()))
        d = json.loads(good)
        d["lastSequenceNumber"] = d.get("lastSequenceNumber", 0) + 5
        cases.append(("lastSequenceNumber beyond the records", json.dumps(d).encode()))
        d = json.loads(good)
        d["batches"][0]["records"][0]["sequenceNumber"] = 2
        cases.append(("sequence number changed", json.dumps(d).encode()))
        d = json.loads(good)
        if len(d["batches"]) > 2:
            del d["batches"][1]
        cases.append(("batch removed", json.dumps(d).encode()))
        d = json.loads(good)
        d["formatVersion"] = 99
        cases.append(("format version 99", json.dumps(d).encode()))
        d = json.loads(good)
        d["batches"][-1]["records"][-1]["payload"] = "!!!not base64!!!"
        cases.append(("invalid base64", json.dumps(d).encode()))
        d = json.loads(good)
        d["batches"][-1]["records"][-1]["tag"] = 999
        cases.append(("tag 999", json.dumps(d).encode()))
        d = json.loads(good)
        if d.get("personalKeys"):
            key = next(iter(d["personalKeys"]))
            d["personalKeys"][key] = "zz" * 32
        cases.append(("personal key not hex", json.dumps(d).encode()))
        return cases

    # -- class 5: crashes and hangs ----------------------------------------------------------

    def crash(self) -> ClassReport:
        rep = ClassReport("crash", "crashes and hangs", "0 crashes, 0 hangs, no double acknowledgement, nothing lost")
        base = self.template("crash", lambda p: self.build_ledger(p, 30, 2, "crash"))
        work = self.root / "work"
        extra = Generator(case_rng(self.seed, "crash-extra", 0), start=80_000).activities(1)
        extra_file = work / "crash-extra.jsonl"
        extra_file.write_text(jsonl(extra))
        golden = work / "golden.json"
        golden.write_bytes(self.tally("replay", str(base), timeout=60).out)
        csv_file = work / "crash.csv"
        csv_file.write_bytes(b"date,type,category,amount,note\n2026-01-02,expense,Attack groceries,12.50,csv\n")
        cases: list[tuple[str, Callable[[int], str | None]]] = []

        def devfull(args_for: Callable[[Path], list[str]], writes: bool) -> Callable[[int], str | None]:
            def go(case: int) -> str | None:
                ledger = copy_ledger(base, self.root / "crash-run") if writes else base
                with open("/dev/full", "wb") as full:
                    res = self.tally(*args_for(ledger), stdout=full.fileno())
                if res.crashed or res.timed_out:
                    return f"{'hang' if res.timed_out else 'crash'} {res.brief()}"
                if res.rc == 0:
                    return f"exit 0 although nothing could be written to stdout {res.brief()}"
                return None
            return go

        subcommands = {
            "init": (lambda l: ["init", "--ledger", str(self.root / f"crash-init-{time.monotonic_ns()}")], True),
            "apply": (lambda l: ["apply", "--ledger", str(l), str(extra_file)], True),
            "replay": (lambda l: ["replay", str(l)], False),
            "audit": (lambda l: ["audit", str(l)], False),
            "log": (lambda l: ["log", str(l)], False),
            "log --json": (lambda l: ["log", str(l), "--json"], False),
            "stats": (lambda l: ["stats", str(l)], False),
            "balances": (lambda l: ["balances", str(l)], False),
            "debts": (lambda l: ["debts", str(l)], False),
            "budget": (lambda l: ["budget", str(l)], False),
            "networth": (lambda l: ["networth", str(l)], False),
            "export csv": (lambda l: ["export", str(l), "--format", "csv"], False),
            "export json": (lambda l: ["export", str(l), "--format", "json"], False),
            "export ledger": (lambda l: ["export", str(l), "--format", "ledger"], False),
            "export person": (lambda l: ["export", str(l), "--format", "person", "--person", BOB], False),
            "import csv": (lambda l: ["import", "csv", str(csv_file), "--ledger", str(l), "--wallet", "Joint account",
                                      "--recorded-at", "2026-01-20T10:00:00Z"], True),
            "diff": (lambda l: ["diff", str(l), str(base)], False),
            "verify": (lambda l: ["verify", str(l), "--expect", str(golden)], False),
            "demo": (lambda l: ["demo", "--ledger", str(self.root / f"crash-demo-{time.monotonic_ns()}")], True),
        }
        for name, (argf, writes) in subcommands.items():
            cases.append((f"stdout=/dev/full: {name}", devfull(argf, writes)))

        def sigpipe(case: int) -> str | None:
            cmds = Generator(case_rng(self.seed, "crash-pipe", case), start=81_000).activities(200)
            path = work / "pipe.jsonl"
            path.write_text(jsonl(cmds))
            # `apply FILE | head -1`: read one line, then close the pipe as head does.
            proc = subprocess.Popen([self.tally.binary, "apply", "--ledger", str(copy_ledger(base, self.root / "crash-run2")),
                                     str(path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
            first = proc.stdout.readline()
            proc.stdout.close()  # what `head -1` does after its line
            try:
                proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                return "hang after its reader went away"
            err = proc.stderr.read().decode("utf-8", "replace")
            if proc.returncode < 0 or proc.returncode >= 128:
                return f"died of signal {-proc.returncode} (exit {128 - proc.returncode} in a shell) after {first!r}; stderr={err[:200]!r}"
            audit = self.tally("audit", str(self.root / "crash-run2"))
            if audit.rc != 0:
                return f"ledger does not audit clean afterwards: {audit.brief()}"
            return None
        cases.append(("apply | head -1 (SIGPIPE)", sigpipe))

        def fifo(target: str, tool: str) -> Callable[[int], str | None]:
            def go(case: int) -> str | None:
                ledger = copy_ledger(base, self.root / "crash-run")
                if target == "segment":
                    path = segments(ledger)[-1]
                elif target == "personal-keys":
                    path = ledger / "personal-keys"
                else:
                    path = ledger / "read-side" / "read-side.sqlite"  # holds the checkpoint
                path.unlink()
                os.mkfifo(path)
                if tool == "apply":
                    res = self.tally("apply", "--ledger", str(ledger), str(extra_file), timeout=self.args.hang_timeout)
                else:
                    res = self.tally.reader(tool, ledger, timeout=self.args.hang_timeout)
                if res.timed_out:
                    return f"hang (> {self.args.hang_timeout:.0f}s)"
                if res.crashed:
                    return f"crash {res.brief()}"
                if target == "segment" and res.rc == 0:
                    return f"exit 0 with a FIFO as its segment {res.brief()}"
                return None
            return go

        for target in ("segment", "personal-keys", "checkpoint"):
            for tool in ("apply", "balances", "log", "replay", "audit"):
                cases.append((f"FIFO as {target}: {tool}", fifo(target, tool)))

        def lock_removal(case: int) -> str | None:
            rng = case_rng(self.seed, "crash-lock", case)
            ledger = copy_ledger(base, self.root / "crash-run")
            cmds_a = Generator(case_rng(self.seed, "crash-lock-a", case), start=82_000).activities(400)
            cmds_b = Generator(case_rng(self.seed, "crash-lock-b", case), start=83_000).activities(100)
            fa, fb = work / "lock-a.jsonl", work / "lock-b.jsonl"
            fa.write_text(jsonl(cmds_a))
            fb.write_text(jsonl(cmds_b))
            a = subprocess.Popen([self.tally.binary, "apply", "--ledger", str(ledger), str(fa)],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
            time.sleep(rng.uniform(0.15, 0.4))
            (journal_dir(ledger) / "journal.lock").unlink(missing_ok=True)
            b = run([self.tally.binary, "apply", "--ledger", str(ledger), str(fb)], timeout=120)
            try:
                out_a, err_a = a.communicate(timeout=120)
            except subprocess.TimeoutExpired:
                os.killpg(a.pid, signal.SIGKILL)
                return "first writer hangs"
            acks = {}
            problems = []
            for who, out, cmds in (("A", out_a, cmds_a), ("B", b.out, cmds_b)):
                for line, seqs in parse_acks(out):
                    for s in seqs:
                        if s in acks:
                            problems.append(f"sequence {s} acknowledged twice ({acks[s][0]} and {who})")
                        acks[s] = (who, cmds[line - 1]["commandID"])
            if b.crashed or a.returncode < 0:
                problems.append(f"crash: A rc={a.returncode}, B {b.brief()}")
            _, events = self.tally.events(ledger)
            lost = [s for s, (who, cid) in acks.items() if events.get(s) != cid]
            if lost:
                problems.append(f"{len(lost)} acknowledged commands not in the log as acknowledged (e.g. seq {lost[:5]})")
            audit = self.tally("audit", str(ledger))
            if audit.rc != 0:
                problems.append(f"audit: {audit.brief()[:200]}")
            b_state = "second writer refused" if b.rc == 2 else f"second writer exit {b.rc}"
            return None if not problems else f"{b_state}; " + "; ".join(problems)[:1200]

        for k in range(self.args.lock_rounds):
            cases.append((f"lock file removed, second writer (round {k})", lock_removal))

        kinds: dict[str, list[int]] = {}
        selected = range(len(cases)) if self.args.case is None else [self.args.case]
        for case in selected:
            label, check = cases[case]
            group = label.split(":")[0].split(" (")[0]
            kinds.setdefault(group, [0, 0])
            problem = check(case)
            rep.total += 1
            kinds[group][1] += 1
            if problem:
                rep.fail(case, label, problem, self.repro("crash", case))
            else:
                rep.good += 1
                kinds[group][0] += 1
        crashes = sum(1 for f in rep.failures if "crash" in f["detail"] or "signal" in f["detail"])
        hangs = sum(1 for f in rep.failures if "hang" in f["detail"])
        rep.details = {"passed/total by kind": {k: f"{v[0]}/{v[1]}" for k, v in kinds.items()},
                       "crashes": crashes, "hangs": hangs}
        rep.passed = rep.good == rep.total
        rep.metric = f"{rep.good}/{rep.total} cases pass; {crashes} crashes, {hangs} hangs"
        return rep

    # -- driver ---------------------------------------------------------------------------------

    def run_all(self) -> list[ClassReport]:
        reports = []
        for cls in self.args.only or CLASSES:
            self.say(f"== {cls}")
            start = time.monotonic()
            try:
                rep = getattr(self, cls)()
            except Exception as error:  # a harness failure is reported, not hidden
                import traceback
                rep = ClassReport(cls, cls, "", metric=f"HARNESS ERROR: {error}")
                rep.failures.append({"case": None, "kind": "harness", "detail": traceback.format_exc(),
                                     "reproduce": self.repro(cls, 0).rsplit(" --case", 1)[0]})
            rep.seconds = time.monotonic() - start
            self.say(f"   {rep.metric} ({rep.seconds:.0f}s)")
            reports.append(rep)
        return reports


def write_reports(reports: list[ClassReport], args: argparse.Namespace, binary: str, total: float) -> None:
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    for r in reports:
        rows.append(f"| {r.name} | {r.title} | {r.target} | {r.metric} | {'PASS' if r.passed else 'FAIL'} | {r.seconds:.0f}s |")
    md = [f"# Tally attack harness: summary",
          "",
          f"- binary: `{binary}`",
          f"- seed: {args.seed}; runs scale: {args.runs}; kill runs: {args.kill_runs}; flips: {args.flips}; "
          f"truncations: {args.truncations}",
          f"- total runtime: {total:.0f}s",
          "",
          "| class | what | target | measured | verdict | runtime |",
          "|---|---|---|---|---|---|",
          *rows, ""]
    for r in reports:
        md.append(f"## {r.name}: {r.title}")
        md.append("")
        for key, value in r.details.items():
            if isinstance(value, dict):
                md.append(f"- {key}: " + ", ".join(f"{k} {v}" for k, v in value.items()))
            else:
                md.append(f"- {key}: {value}")
        if r.failures:
            kinds: dict[str, int] = {}
            for f in r.failures:
                kinds[f["kind"]] = kinds.get(f["kind"], 0) + 1
            md.append(f"- failing cases: {len(r.failures)} (" + ", ".join(f"{k}: {v}" for k, v in kinds.items()) + ")")
            md.append("")
            md.append("First failing case of each kind (all of them in results.json):")
            md.append("")
            shown = set()
            for f in r.failures:
                if f["kind"] in shown:
                    continue
                shown.add(f["kind"])
                detail = f["detail"].replace("\n", " ").replace("|", "\\|")
                md.append(f"- case {f['case']} ({f['kind']}): {detail[:600]}")
                md.append(f"  - reproduce: `{f['reproduce']}`")
        md.append("")
    (out / "summary.md").write_text("\n".join(md))
    (out / "results.json").write_text(json.dumps({
        "binary": binary, "seed": args.seed, "runs": args.runs, "total_seconds": round(total, 1),
        "classes": [{"name": r.name, "title": r.title, "target": r.target, "metric": r.metric, "passed": r.passed,
                     "total": r.total, "good": r.good, "seconds": round(r.seconds, 1), "details": r.details,
                     "failures": r.failures} for r in reports]}, indent=2))


def main() -> int:
    p = argparse.ArgumentParser(description="Attack a tally binary and measure durability, detection and robustness.")
    p.add_argument("--tally", required=True, help="path of the tally binary to attack")
    p.add_argument("--runs", type=float, default=1.0, help="scales every case count (default 1.0 = the default run)")
    p.add_argument("--seed", type=int, default=1, help="seed of every case (default 1)")
    p.add_argument("--only", action="append", choices=CLASSES, help="run only this class (repeatable)")
    p.add_argument("--case", type=int, help="run only this case index (with one --only): reproduce a failure")
    p.add_argument("--out", default="attack-results", help="output directory for summary.md and results.json")
    p.add_argument("--workdir", default=None, help="where scratch ledgers go (default: $TMPDIR)")
    p.add_argument("--keep", action="store_true", help="keep the scratch directory")
    p.add_argument("--kill-runs", type=int, help="kill -9 runs (default 1000 × --runs)")
    p.add_argument("--kill-commands", type=int, default=1500, help="commands in the file each killed apply runs")
    p.add_argument("--rotation-share", type=float, default=0.05,
                   help="share of kill runs on a ledger whose 64 MiB segment is about to rotate (0 = none)")
    p.add_argument("--kill-max-delay", type=float, default=0.35, help="longest delay before the kill, seconds")
    p.add_argument("--flips", type=int, help="bit-flip cases (default 150 × --runs)")
    p.add_argument("--truncations", type=int, help="truncation cases (default 60 × --runs)")
    p.add_argument("--malformed-lines", type=int, default=250, help="malformed command lines")
    p.add_argument("--lock-rounds", type=int, default=5, help="lock-file removal rounds")
    p.add_argument("--hang-timeout", type=float, default=10.0, help="seconds after which a FIFO case is a hang")
    args = p.parse_args()
    args.kill_runs = args.kill_runs if args.kill_runs is not None else max(1, round(1000 * args.runs))
    args.flips = args.flips if args.flips is not None else max(1, round(150 * args.runs))
    args.truncations = args.truncations if args.truncations is not None else max(1, round(60 * args.runs))
    if args.case is not None and (not args.only or len(args.only) != 1):
        p.error("--case needs exactly one --only CLASS")
    if not os.access(args.tally, os.X_OK):
        p.error(f"{args.tally}: not an executable")
    harness = Harness(args)
    start = time.monotonic()
    try:
        reports = harness.run_all()
    finally:
        if not args.keep:
            shutil.rmtree(harness.root, ignore_errors=True)
        else:
            print(f"scratch kept in {harness.root}")
    total = time.monotonic() - start
    write_reports(reports, args, harness.tally.binary, total)
    print(f"\nwrote {Path(args.out) / 'summary.md'} and {Path(args.out) / 'results.json'} ({total:.0f}s)")
    for r in reports:
        for f in r.failures[:3]:
            print(f"  {r.name} case {f['case']}: {f['detail'][:160]}\n    reproduce: {f['reproduce']}")
    return 0 if all(r.passed for r in reports) else 1


if __name__ == "__main__":
    sys.exit(main())
