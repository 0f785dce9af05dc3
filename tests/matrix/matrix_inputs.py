"""The legitimate inputs of the command-line matrix, made once per run.

survey: a quick one-rank STREAM survey; survey-beff-1/2: b_eff surveys on 1
and 2 ranks merged into `merged` (a scaling study); archive: a history
archive of the survey; reference: the baseline it writes; config: the
survey's --print-config; topology: a two-switch tree; dmidecode: a recorded
`dmidecode -t memory`. Each HDF5 input has a gzip-9 copy (h5repack) and a
copy whose host names carry an escape sequence, a line break and a byte
that is not UTF-8 (h5py); each text input a copy with such a comment.
"""
import hashlib
import os
import socket
import shutil
import subprocess

HOSTILE_HOST = b"evil\x1b[2J\nmerged 9 runs into x.h5\xff"
SURVEY_ARGS = ["--tests", "stream", "--quick", "--threads", "1", "--stream.elements", "1M"]
SOURCE_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class Inputs:
    def __init__(self, root, bwsurvey, bwreport, mpirun, env):
        self.root, self.bwsurvey, self.bwreport, self.mpirun, self.env = root, bwsurvey, bwreport, mpirun, env
        os.makedirs(root)
        self.files = {}
        self._make()
        for name in os.listdir(root):
            os.chmod(os.path.join(root, name), 0o444)  # the matrix reads them; nothing may change them
        self._digests = self.digests()

    def _run(self, argv, expect_failure=False, allowed_codes=(0,)):
        done = subprocess.run(argv, cwd=self.root, env=self.env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        if (done.returncode not in allowed_codes) != expect_failure:
            raise SystemExit(f"making the inputs failed: {' '.join(argv)}\n{done.stdout.decode(errors='replace')}")
        return done.stdout

    def _path(self, name):
        return os.path.join(self.root, name)

    def _survey(self, name, ranks, args):
        self._run([self.mpirun, "-q", "-np", str(ranks), self.bwsurvey, *args, "--out", self._path(name)])
        return self._path(name)

    def _make(self):
        f = self.files
        f["survey"] = self._survey("survey.h5", 1, SURVEY_ARGS)
        # The roofline's quick ceilings may fail their own check on a busy
        # machine (exit 3): the file is whole either way.
        self._run([self.mpirun, "-q", "-np", "1", self.bwsurvey, "--tests", "stream,roofline", "--quick", "--threads",
                   "1", "--stream.elements", "1M", "--out", self._path("roofline.h5")], allowed_codes=(0, 3))
        f["roofline"] = self._path("roofline.h5")
        # A survey cut off after its first test: what --resume completes.
        self._run([self.mpirun, "-q", "-np", "1", "-x", "BWSURVEY_INJECT_FAULT=kill-after:stream", self.bwsurvey,
                   *SURVEY_ARGS, "--out", self._path("interrupted.h5")], expect_failure=True)
        f["interrupted"] = self._path("interrupted.h5")
        beff = ["--tests", "beff", "--quick", "--threads", "1"]
        one, two = self._survey("beff-1.h5", 1, beff), self._survey("beff-2.h5", 2, beff)
        self._run([self.bwreport, "merge", self._path("merged.h5"), one, two])
        f["merged"] = self._path("merged.h5")
        f["beff1"] = one
        self._run([self.bwreport, "history", "add", self._path("archive.sqlite"), f["survey"]])
        f["archive"] = self._path("archive.sqlite")
        with open(self._path("reference.ini"), "w") as out:  # bounds no run here can miss
            out.write("[*]\nstream.triad = 1, -0.999, none, GB/s\n")
        f["reference"] = self._path("reference.ini")
        with open(self._path("config.ini"), "wb") as out:
            out.write(self._run([self.bwsurvey, *SURVEY_ARGS, "--print-config"]))
        f["config"] = self._path("config.ini")
        with open(self._path("topology.txt"), "w") as out:
            out.write("SwitchName=leaf1 Level=0 LinkSpeed=1 Nodes=n[1-2]\n"
                      "SwitchName=leaf2 Nodes=n[3-4]\n"
                      "SwitchName=top Switches=leaf[1-2]\n")
        f["topology"] = self._path("topology.txt")
        shutil.copyfile(os.path.join(SOURCE_DIR, "tests", "fixtures", "dmidecode", "vm-qemu.txt"),
                        self._path("dmidecode.txt"))
        f["dmidecode"] = self._path("dmidecode.txt")
        with open(self._path("reasons.txt"), "w") as out:  # scontrol show node --oneliner, one drained node
            out.write("NodeName=n1 State=IDLE+DRAIN Reason=bwsurvey: stream.triad[double] 4GB/s 50% of cohort "
                      "median job 1 [root@2026-11-27T10:00:00]\n")
        f["reasons"] = self._path("reasons.txt")
        with open(self._path("targets.txt"), "w") as out:  # a campaign's targets: this machine, the survey's host
            out.write(socket.gethostname() + "\n")
        f["targets"] = self._path("targets.txt")
        self._run([self.bwreport, "campaign", self._path("campaign.h5"), "--targets", f["targets"], f["survey"]])
        f["campaign"] = self._path("campaign.h5")
        for name in ("survey", "merged", "roofline"):
            base = f[name]
            gz = base[:-3] + "-gzip9.h5"
            self._run(["h5repack", "-f", "SHUF", "-f", "GZIP=9", base, gz])
            f[name + ":compressed"] = gz
            f[name + ":hostile-text"] = self._hostile_copy(base)
        hostile_archive = self._path("archive-hostile.sqlite")
        self._run([self.bwreport, "history", "add", hostile_archive, f["survey:hostile-text"]])
        f["archive:hostile-text"] = hostile_archive
        for name in ("reference", "config", "topology", "dmidecode", "reasons", "targets"):
            path = f[name][:-4] + "-hostile" + f[name][-4:]
            with open(f[name], "rb") as src, open(path, "wb") as out:
                out.write(b"# " + HOSTILE_HOST.replace(b"\n", b" ") + b"\n" + src.read())
            f[name + ":hostile-text"] = path

    def _hostile_copy(self, base):
        """A copy whose every host name is HOSTILE_HOST (h5py, as another tool would write it)."""
        path = base[:-3] + "-hostile.h5"
        shutil.copyfile(base, path)
        script = (
            "import sys, h5py, numpy as np\n"
            "hostile = sys.argv[2].encode('latin-1')\n"
            "def visit(name, obj):\n"
            "    if isinstance(obj, h5py.Dataset) and obj.dtype.names and 'host' in obj.dtype.names:\n"
            "        data = obj[...]\n"
            "        size = obj.dtype['host'].itemsize if obj.dtype['host'].kind == 'S' else None\n"
            "        if size is None: return\n"
            "        data['host'] = hostile[:size]\n"
            "        obj[...] = data\n"
            "with h5py.File(sys.argv[1], 'r+') as f:\n"
            "    f.visititems(visit)\n")
        self._run(["/usr/bin/python3", "-c", script, path, HOSTILE_HOST.decode("latin-1")])
        return path

    def path_for(self, fixture, kind):
        """The legitimate file a cell's kind is made from."""
        if fixture is None:
            return None
        return self.files.get(f"{fixture}:{kind}", self.files[fixture])

    def has_variant(self, fixture, kind):
        return f"{fixture}:{kind}" in self.files

    def digests(self):
        out = {}
        for name in sorted(os.listdir(self.root)):
            with open(os.path.join(self.root, name), "rb") as f:
                out[name] = hashlib.sha256(f.read()).hexdigest()
        return out
