// bwreport: offline analysis of survey files (no MPI needed). This version
// has `summary FILE`: the terminal summary again, from the file alone.
#include <iostream>
#include <string>

#include "core/Errors.hpp"
#include "survey/FileSummary.hpp"

namespace {
const char* const kUsage =
    "Usage: bwreport summary FILE\n"
    "  summary FILE   print the survey's terminal summary again, read from its HDF5 file\n";
}

int main(int argc, char** argv) {
  if (argc == 2 && (std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h")) {
    std::cout << kUsage;
    return bws::kExitOk;
  }
  if (argc != 3 || std::string(argv[1]) != "summary") {
    std::cerr << "bwreport: error: expected 'summary FILE'; see bwreport --help" << std::endl;
    return bws::kExitUsage;
  }
  try {
    for (const std::string& line : bws::survey::summarize_file(argv[2])) std::cout << line << "\n";
    return bws::kExitOk;
  } catch (const bws::UsageError& e) {
    std::cerr << "bwreport: error: " << e.what() << std::endl;
    return bws::kExitUsage;
  } catch (const std::exception& e) {
    std::cerr << "bwreport: error: " << e.what() << std::endl;
    return bws::kExitFailure;
  }
}
