// bwsurvey: the MPI driver. Parses options, wires the coordinator; all
// measuring, storing and checking lives in lib/.
#include <iostream>

#include "core/Errors.hpp"
#include "survey/CommandLine.hpp"
#include "survey/Coordinator.hpp"
#include "survey/IniFile.hpp"
#include "survey/MpiWorld.hpp"
#include "survey/Registry.hpp"
#include "survey/ResumeState.hpp"

namespace {

const char* const kUsage =
    "Usage: bwsurvey [--tests stream] [--out FILE] [--config FILE] [--quick] [--threads N] "
    "[--bind compact|spread|none] [--<test>.<option> VALUE ...] [--force]\n"
    "       bwsurvey --resume FILE [--phase-timeout SECONDS]\n"
    "Measures memory bandwidth on every rank (run it under mpirun or srun, one rank per node or NUMA domain)\n"
    "and writes every number to one HDF5 file. Exit codes: 0 all valid and all checks passed; 1 a result did\n"
    "not validate or a runtime error; 2 usage or configuration error; 3 a model check failed.\n";

}  // namespace

int main(int argc, char** argv) {
  bws::survey::MpiSession mpi(&argc, &argv);
  const bool root = mpi.rank() == 0;
  try {
    // Rank 0 reads the INI file; every rank parses the same text.
    auto read_config = [&](const std::string& path) {
      std::string text, error;
      if (root) {
        try {
          text = bws::survey::read_config_file(path);
        } catch (const bws::UsageError& e) {
          error = e.what();
        }
      }
      error = bws::survey::broadcast_text(MPI_COMM_WORLD, error);
      if (!error.empty()) throw bws::UsageError(error);
      return bws::survey::broadcast_text(MPI_COMM_WORLD, text);
    };
    // --resume: rank 0 reads the stored configuration of the file.
    auto read_resume_config = [&](const std::string& path) {
      std::string text, error;
      if (root) {
        try {
          text = bws::survey::read_stored_config(path);
        } catch (const bws::UsageError& e) {
          error = e.what();
        }
      }
      error = bws::survey::broadcast_text(MPI_COMM_WORLD, error);
      if (!error.empty()) throw bws::UsageError(error);
      return bws::survey::broadcast_text(MPI_COMM_WORLD, text);
    };
    const bws::survey::CommandLine cl = bws::survey::parse_command_line(argc, argv, read_config, read_resume_config);
    if (cl.help) {
      if (root) std::cout << kUsage << "\n" << bws::survey::survey_options() << std::flush;
      return bws::kExitOk;
    }
    if (cl.print_config) {
      if (root) std::cout << cl.config.to_ini(bws::survey::invocation_only_keys()) << std::flush;
      return bws::kExitOk;
    }
    if (const auto listing = bws::survey::requested_listing(cl.config)) {
      if (root) std::cout << *listing << std::flush;
      return bws::kExitOk;
    }
    try {
      return bws::survey::run_survey(cl, {std::cout, std::cerr});
    } catch (const std::exception& e) {
      // An error the survey did not agree on with the other ranks: this rank
      // names itself and its host, and ends the job rather than leaving the
      // others waiting for it in a collective.
      std::cerr << "bwsurvey: error: rank " << mpi.rank() << " (" << bws::survey::this_hostname()
                << "): " << e.what() << std::endl;
      if (mpi.size() > 1) MPI_Abort(MPI_COMM_WORLD, bws::kExitFailure);
      return bws::kExitFailure;
    }
  } catch (const bws::UsageError& e) {
    if (root) std::cerr << "bwsurvey: error: " << e.what() << std::endl;
    return bws::kExitUsage;
  } catch (const std::exception& e) {
    if (root) std::cerr << "bwsurvey: error: " << e.what() << std::endl;
    return bws::kExitFailure;
  }
}
