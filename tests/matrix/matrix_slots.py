"""The file slots of bwsurvey and bwreport: which argument of which command
reads or writes a file, the legitimate file it takes, and the code a
legitimate run ends with. The matrix gives each slot every kind of file;
unknown_slots() reads the programs' --help and names any command or file
option this list lacks.
"""
import os
import re
import socket
import subprocess
from dataclasses import dataclass, field

from matrix_inputs import SURVEY_ARGS


@dataclass
class Slot:
    name: str                 # "bwreport export FILE", "bwsurvey --config"
    role: str                 # "input" or "output"
    fixture: str | None       # the legitimate input (matrix_inputs), or for an output the file "exists" copies
    build: object             # build(target, cell_dir, inputs, out_path, tools) -> argv
    legitimate_code: int = 0
    output_name: str | None = None   # the command's own output in the cell (for link-to-output)
    link_fixture: str = "survey"     # what an output slot's link-to-input points at
    skip_kinds: tuple = ()
    legitimate_kinds: tuple = ()     # kinds that are legitimate here besides plain, compressed, hostile-text, new
    changes_target: bool = False     # a legitimate run changes the target (history add, --resume)
    known_options: tuple = ()        # the --help options this slot stands for

    def argv(self, target, cell_dir, inputs, out_path, bwsurvey, bwreport, mpirun):
        return self.build(target, cell_dir, inputs, out_path, {"bwsurvey": bwsurvey, "bwreport": bwreport,
                                                              "mpirun": mpirun})


# Text inputs have no compressed form, and a text cut short is still text.
NOT_HDF5 = ("compressed", "truncated")


def report(*words):
    """A bwreport command line; {T} is the target, {O} the output, {F:name} a fixture, {D} the cell."""
    def build(target, cell_dir, inputs, out_path, tools):
        argv = [tools["bwreport"]]
        for w in words:
            w = w.replace("{T}", target).replace("{D}", cell_dir).replace("{O}", out_path or "")
            for key in re.findall(r"\{F:(\w+)\}", w):
                w = w.replace("{F:" + key + "}", inputs.files[key])
            argv.append(w)
        return argv
    return build


def survey(*words, out="{D}/run.h5", plan=SURVEY_ARGS, ranks=1):
    """A bwsurvey run with a quick plan: one rank as a singleton (no launcher), else under mpirun."""
    def build(target, cell_dir, inputs, out_path, tools):
        launcher = [] if ranks == 1 else [tools["mpirun"], "-q", "-np", str(ranks)]
        argv = [*launcher, tools["bwsurvey"], *plan]
        for w in list(words) + (["--out", out] if out else []):
            w = w.replace("{T}", target).replace("{D}", cell_dir)
            for key in re.findall(r"\{F:(\w+)\}", w):
                w = w.replace("{F:" + key + "}", inputs.files[key])
            argv.append(w)
        return argv
    return build


LINKS_PLAN = ["--tests", "links", "--quick", "--threads", "1"]
PMBW_PLAN = ["--tests", "pmbw", "--threads", "1", "--pmbw.routines", "ScanRead64PtrSimpleLoop", "--pmbw.max-bytes",
             "64K", "--pmbw.min-time", "0.01", "--pmbw.reps", "1", "--pmbw.threads", "1"]


def all_slots():
    s = []
    add = s.append
    # ---- bwreport: inputs
    add(Slot("bwreport summary FILE", "input", "survey", report("summary", "{T}")))
    add(Slot("bwreport export --csv FILE", "input", "survey", report("export", "--csv", "{T}", "--dir", "{O}"),
             output_name="export"))
    add(Slot("bwreport export --json FILE", "input", "survey", report("export", "--json", "{T}", "--dir", "{O}"),
             output_name="export"))
    add(Slot("bwreport export --prometheus FILE", "input", "survey", report("export", "--prometheus", "{T}")))
    add(Slot("bwreport merge IN", "input", "survey", report("merge", "{O}", "{T}", "{F:beff1}"),
             output_name="merged-out.h5"))
    # The targets name the survey's host; a hostile copy renames it, so the
    # target is then not covered (exit 4): no hostile-text cell.
    add(Slot("bwreport campaign SURVEY", "input", "survey",
             report("campaign", "{O}", "--targets", "{F:targets}", "{T}"), output_name="campaign-out.h5",
             skip_kinds=("hostile-text",)))
    add(Slot("bwreport campaign --targets", "input", "targets",
             report("campaign", "{O}", "--targets", "{T}", "{F:survey}"), output_name="campaign-out.h5",
             skip_kinds=NOT_HDF5, known_options=("targets",)))
    add(Slot("bwreport scaling FILE", "input", "merged", report("scaling", "{T}", "--out", "{O}"),
             output_name="scaling-out.h5"))
    add(Slot("bwreport flags FILE", "input", "survey", report("flags", "{T}")))
    add(Slot("bwreport retest FILE", "input", "survey", report("retest", "{T}")))
    add(Slot("bwreport drain FILE", "input", "survey", report("drain", "{T}")))
    add(Slot("bwreport undrain FILE", "input", "survey", report("undrain", "{T}", "--reasons", "{F:reasons}")))
    # The fixture's one host is this machine; a hostile copy renames it, so
    # that host is then not surveyed (exit 4), which the matrix would count
    # as a refusal: no hostile-text cell (the line names only --node's host).
    add(Slot("bwreport verdict FILE", "input", "survey", report("verdict", "{T}", "--node", socket.gethostname()),
             skip_kinds=("hostile-text",)))
    add(Slot("bwreport undrain --reasons", "input", "reasons", report("undrain", "{F:survey}", "--reasons", "{T}"),
             skip_kinds=NOT_HDF5, known_options=("reasons",)))
    add(Slot("bwreport roofline FILE", "input", "roofline", report("roofline", "{T}", "--ai", "1"),
             known_options=("file",)))
    add(Slot("bwreport plot FILE", "input", "survey", report("plot", "{T}", "-o", "{O}"), output_name="report"))
    add(Slot("bwreport plot --history ARCHIVE", "input", "archive",
             report("plot", "{F:survey}", "-o", "{O}", "--history", "{T}"), output_name="report",
             skip_kinds=NOT_HDF5, known_options=("history",)))
    add(Slot("bwreport history add SURVEY", "input", "survey", report("history", "add", "{D}/archive.sqlite", "{T}")))
    add(Slot("bwreport history add ARCHIVE", "input", "archive", report("history", "add", "{T}", "{F:beff1}"),
             skip_kinds=("compressed",), legitimate_kinds=("missing",), changes_target=True))
    add(Slot("bwreport history show ARCHIVE", "input", "archive", report("history", "show", "{T}", "--metric",
                                                                         "stream.triad[double]"),
             skip_kinds=NOT_HDF5))
    add(Slot("bwreport history changes ARCHIVE", "input", "archive", report("history", "changes", "{T}"),
             skip_kinds=NOT_HDF5))
    add(Slot("bwreport history baseline ARCHIVE", "input", "archive",
             report("history", "baseline", "{T}", "--out", "{O}"), output_name="ref.ini", skip_kinds=NOT_HDF5))
    # ---- bwreport: outputs
    add(Slot("bwreport export --dir DIR", "output", "survey", report("export", "--csv", "{F:survey}", "--dir", "{T}"),
             known_options=("dir",), legitimate_kinds=("directory",)))
    add(Slot("bwreport export --out", "output", "config",
             report("export", "--csv", "{F:survey}", "--table", "stream/results", "--out", "{T}"),
             known_options=("out",)))
    add(Slot("bwreport merge OUT", "output", "merged", report("merge", "{T}", "{F:survey}", "{F:beff1}")))
    add(Slot("bwreport campaign OUT", "output", "campaign",
             report("campaign", "{T}", "--targets", "{F:targets}", "{F:survey}")))
    add(Slot("bwreport scaling --out", "output", "merged", report("scaling", "{F:merged}", "--out", "{T}"),
             link_fixture="merged", known_options=("out",)))
    add(Slot("bwreport plot -o DIR", "output", "survey", report("plot", "{F:survey}", "-o", "{T}"),
             known_options=("out",), legitimate_kinds=("directory",)))
    add(Slot("bwreport history show --plot", "output", "config",
             report("history", "show", "{F:archive}", "--node", socket.gethostname(), "--plot", "{T}"),
             link_fixture="archive", known_options=("plot",)))
    # A reference is written anew each time (a cron job's baseline): a text
    # file of its own kind is replaced without --force.
    add(Slot("bwreport history baseline --out", "output", "reference",
             report("history", "baseline", "{F:archive}", "--out", "{T}"), link_fixture="archive",
             known_options=("out",), legitimate_kinds=("exists",)))
    # ---- bwsurvey
    add(Slot("bwsurvey --config", "input", "config", survey("--config", "{T}"), skip_kinds=NOT_HDF5))
    add(Slot("bwsurvey --reference", "input", "reference", survey("--reference", "{T}"), skip_kinds=NOT_HDF5))
    add(Slot("bwsurvey --memory.dmidecode", "input", "dmidecode", survey("--memory.dmidecode", "{T}"),
             skip_kinds=NOT_HDF5))
    add(Slot("bwsurvey --links.topology", "input", "topology",
             survey("--links.topology", "{T}", plan=LINKS_PLAN, ranks=2), skip_kinds=NOT_HDF5))
    # The hosts of a resumed file must be this run's: no hostile-text copy.
    add(Slot("bwsurvey --resume", "input", "interrupted", survey("--resume", "{T}", out=None),
             skip_kinds=("hostile-text",), changes_target=True))
    add(Slot("bwsurvey --out", "output", "survey", survey(out="{T}")))
    add(Slot("bwsurvey --out --force", "output", "survey", survey("--force", out="{T}"),
             legitimate_kinds=("exists",)))
    add(Slot("bwsurvey --pmbw.stats", "output", "config", survey("--pmbw.stats", "{T}", plan=PMBW_PLAN)))
    return s


def role_of(slot_name):
    for slot in all_slots():
        if slot.name == slot_name:
            return slot.role
    return None


# An option whose help speaks of a file takes a file.
FILE_WORDS = re.compile(r"\b(?:file|FILE)\b|\.conf\b")
# Options whose help speaks of a file they do not take (--force replaces
# one, --type picks the ceilings of one, --partial and --metric describe one).
NOT_FILE_OPTIONS = {"force", "type", "partial", "metric"}
OPTION_FILE_WORDS = re.compile(r"\b(?:file|FILE|directory|DIR|archive|ARCHIVE|PNG)\b")


def unknown_slots(bwsurvey, bwreport, env, slots):
    """Commands of `bwreport --help` and file options of `bwsurvey --help` that no slot covers."""
    covered = " ".join(slot.name for slot in slots)
    missing = []
    usage = subprocess.run([bwreport, "--help"], env=env, stdout=subprocess.PIPE, text=True).stdout
    for command in re.findall(r"^  (\w+) ", usage, re.M):
        if f"bwreport {command} " not in covered:
            missing.append(f"bwreport {command}")
    helps = subprocess.run([bwsurvey, "--help"], env=env, stdout=subprocess.PIPE, text=True).stdout
    for option, text in re.findall(r"^  --([\w.-]+)[^\n]*?\s{2,}(.*(?:\n {20,}.*)*)", helps, re.M):
        if FILE_WORDS.search(" ".join(text.split())) and f"bwsurvey --{option}" not in covered:
            missing.append(f"bwsurvey --{option}")
    commands = [[c] for c in re.findall(r"^  (\w+) ", usage, re.M) if c != "history"]
    history = subprocess.run([bwreport, "history", "--help"], env=env, stdout=subprocess.PIPE, text=True).stdout
    commands += [["history", c] for c in re.findall(r"^  history (\w+) ", history, re.M)]
    for words in commands:
        text = subprocess.run([bwreport, *words, "--help"], env=env, stdout=subprocess.PIPE, text=True).stdout
        prefix = "bwreport " + " ".join(words) + " "
        mine = [slot for slot in slots if slot.name.startswith(prefix)]
        if not mine:
            missing.append(prefix.strip())
        for option, help_text in re.findall(r"^  (?:-\w, )?--([\w.-]+)[^\n]*?\s{2,}(.*(?:\n {10,}\S.*)*)", text, re.M):
            if option in NOT_FILE_OPTIONS or not OPTION_FILE_WORDS.search(" ".join(help_text.split())):
                continue
            if not any(option in slot.known_options or f"--{option}" in slot.name for slot in mine):
                missing.append(f"{prefix}--{option}")
    return missing
