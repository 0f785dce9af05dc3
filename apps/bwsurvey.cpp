// bwsurvey: the MPI driver. Parses options, wires the coordinator; all
// measuring, storing and checking lives in lib/.
#include <iostream>
#include <optional>
#include <string>

#include <boost/program_options/options_description.hpp>

#include "catalog/Registry.hpp"
#include "core/Errors.hpp"
#include "core/PrintableText.hpp"
#include "core/IniFile.hpp"
#include "report/VersionText.hpp"
#include "run/CommandLine.hpp"
#include "run/MpiWorld.hpp"
#include "run/ResumeState.hpp"
#include "run/SetupFailure.hpp"
#include "run/Coordinator.hpp"

namespace {

const char* const kUsage =
    "Usage: bwsurvey [--tests stream] [--out FILE] [--config FILE] [--quick] [--threads N] "
    "[--bind compact|spread|none] [--<test>.<option> VALUE ...] [--force]\n"
    "       bwsurvey --resume FILE [--phase-timeout SECONDS]\n"
    "       bwsurvey --version\n"
    "Measures memory bandwidth on every rank (run it under mpirun or srun, one rank per node or NUMA domain)\n"
    "and writes every number to one HDF5 file. Exit codes: 0 all valid and all checks passed; 1 a result did\n"
    "not validate or a runtime error; 2 usage or configuration error; 3 a model check failed.\n";

void print_help() { std::cout << kUsage << "\n" << bws::run::survey_options() << std::flush; }

}  // namespace

int main(int argc, char** argv) {
  bws::guard_terminal_streams();  // no control byte from any text reaches the terminal
  // --version and a lone --help need no MPI: answered before it starts.
  if (bws::run::asks_for_version(argc, argv) || bws::run::asks_for_help_only(argc, argv)) {
    if (bws::run::first_launched_rank()) {
      if (bws::run::asks_for_version(argc, argv))
        std::cout << bws::report::version_text("bwsurvey") << std::flush;
      else
        print_help();
    }
    return bws::kExitOk;
  }
  bws::run::MpiSession mpi(&argc, &argv);
  const bool root = mpi.rank() == 0;
  const std::string who = "rank " + std::to_string(mpi.rank()) + " (" + bws::run::this_hostname() + ")";
  // Setup is agreed step by step (SetupFailure.hpp): whatever a rank throws
  // reaches every rank, which all end with the same exit code and one line.
  auto agreed = [&](const std::optional<bws::run::SetupFailure>& mine) {
    const auto failure = bws::run::agree_on_failure(MPI_COMM_WORLD, mine);
    if (failure && root) std::cerr << "bwsurvey: error: " << failure->message << std::endl;
    return failure;
  };

  // Rank 0 parses first, reading the --config file or the /config of the
  // --resume file; the other ranks parse the same texts after it succeeded.
  std::string config_text, resume_text;
  std::optional<bws::run::CommandLine> cl;
  auto parse = [&](bool read_files) {
    return bws::run::failure_of(
        [&] {
          cl = bws::run::parse_command_line(
              argc, argv,
              [&](const std::string& path) {
                return read_files ? (config_text = bws::read_config_file(path)) : config_text;
              },
              [&](const std::string& path) {
                return read_files ? (resume_text = bws::run::read_stored_config(path)) : resume_text;
              });
        },
        who);
  };
  std::optional<bws::run::SetupFailure> mine;
  if (root) mine = parse(true);
  if (const auto failure = agreed(mine)) return failure->exit_code;
  config_text = bws::run::broadcast_text(MPI_COMM_WORLD, config_text);
  resume_text = bws::run::broadcast_text(MPI_COMM_WORLD, resume_text);
  if (!root) mine = parse(false);
  if (const auto failure = agreed(mine)) return failure->exit_code;

  if (cl->version) {
    if (root) std::cout << bws::report::version_text("bwsurvey") << std::flush;
    return bws::kExitOk;
  }
  if (cl->help) {
    if (root) print_help();
    return bws::kExitOk;
  }
  if (cl->print_config) {
    if (root) std::cout << cl->config.to_ini(bws::run::invocation_only_keys()) << std::flush;
    return bws::kExitOk;
  }
  std::optional<std::string> listing;
  if (const auto failure =
          agreed(bws::run::failure_of([&] { listing = bws::catalog::requested_listing(cl->config); }, who)))
    return failure->exit_code;
  if (listing) {
    if (root) std::cout << *listing << std::flush;
    return bws::kExitOk;
  }
  try {
    return bws::run::run_survey(*cl, {std::cout, std::cerr});
  } catch (const std::exception& e) {
    // An error the survey did not agree on with the other ranks: this rank
    // names itself and its host, and ends the job rather than leaving the
    // others waiting for it in a collective.
    std::cerr << "bwsurvey: error: " << who << ": " << e.what() << std::endl;
    if (mpi.size() > 1) MPI_Abort(MPI_COMM_WORLD, bws::kExitFailure);
    return bws::kExitFailure;
  }
}
