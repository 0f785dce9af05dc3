# Spack package for bwsurvey (packaging/README.md says how it was checked).
#
# Put this file at <repo>/packages/bwsurvey/package.py of a Spack package
# repository (`spack repo create <dir> <namespace>`), then:
#   spack install bwsurvey@0.1.0          # the release tag
#   spack install bwsurvey@main ~native   # the main branch, for any CPU of the target
#
# homepage, url, git and maintainers are placeholders: set them to where the project is
# published before use.

from spack_repo.builtin.build_systems.cmake import CMakePackage

from spack.package import *


class Bwsurvey(CMakePackage):
    """bwsurvey measures the memory bandwidth of every node of an HPC cluster
    in one MPI job (STREAM, b_eff, pmbw, OpenCL device tests), keeps every
    number in one HDF5 file and checks the numbers; bwreport reads the file
    back (summary, exports, HTML report)."""

    homepage = "https://example.org/bwsurvey"
    url = "https://example.org/bwsurvey/archive/v0.1.0.tar.gz"
    git = "https://example.org/bwsurvey.git"

    maintainers("bwsurvey-maintainers")

    version("main", branch="main")
    version("0.1.0", tag="v0.1.0")

    variant(
        "opencl",
        default=True,
        description="Build the OpenCL backend (--tests ocl): needs an OpenCL ICD loader "
        "and the OpenCL-CLHPP C++ headers",
    )
    variant(
        "native",
        default=True,
        description="Compile for the building CPU (-march=native, after Spack's own target "
        "flags, so it wins): build on (a node like) the nodes to be measured",
    )
    variant(
        "blas",
        default=True,
        description="OpenBLAS for the roofline's DGEMM/SGEMM ceilings (without it their rows "
        "say 'not available')",
    )
    variant("tests", default=False, description="Build the test suite (needs GoogleTest)")
    variant(
        "analysis",
        default=True,
        description="The Python that `bwreport plot` runs (numpy, matplotlib) and h5py "
        "to read the HDF5 file from Python",
    )

    # CMakePackage's build_type variant defaults to Release: -O3 -DNDEBUG.
    depends_on("c", type="build")
    depends_on("cxx", type="build")
    depends_on("cmake@3.20:", type="build")
    depends_on("pkgconfig", type="build")  # hwloc is found with pkg-config

    depends_on("mpi")  # tested with Open MPI
    depends_on("hdf5")  # the C API, serial: rank 0 alone writes the file
    depends_on("hwloc@2:")
    depends_on("boost@1.70: +program_options")
    depends_on("sqlite@3:")  # the history archive

    depends_on("openblas", when="+blas")  # found with pkg-config (openblas.pc)

    depends_on("googletest", type=("build", "test"), when="+tests")

    depends_on("opencl", when="+opencl")  # the ICD loader (ocl-icd, opencl-icd-loader)
    depends_on("opencl-clhpp", when="+opencl")

    with when("+analysis"):
        depends_on("python@3.9:", type="run")
        depends_on("py-numpy", type="run")
        depends_on("py-matplotlib", type="run")
        depends_on("py-h5py", type="run")

    def cmake_args(self):
        return [
            self.define_from_variant("BWS_OPENCL", "opencl"),
            self.define_from_variant("BWS_NATIVE", "native"),
            self.define_from_variant("BWS_BLAS", "blas"),
            self.define_from_variant("BUILD_TESTING", "tests"),
        ]

    def setup_run_environment(self, env):
        # `bwreport plot` runs $BWSURVEY_PYTHON, else /usr/bin/python3.
        if self.spec.satisfies("+analysis"):
            env.set("BWSURVEY_PYTHON", self.spec["python"].command.path)

    def check(self):
        # `spack install --test=root bwsurvey+tests`: every ctest test but
        # the Slurm ones, which start a private Slurm cluster of their own.
        if self.spec.satisfies("+tests"):
            with working_dir(self.build_directory):
                ctest("--output-on-failure", "--label-exclude", "slurm")
