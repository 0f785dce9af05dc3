#pragma once
// The INI fuzz target, shared by the seeded unit test
// (tests/unit/ini_fuzz_test.cpp) and the libFuzzer entry point
// (tests/fuzz/ini_fuzzer.cpp, -DBWS_FUZZ=ON with clang): a text goes where
// a --config file's text goes (the INI reader, parse_command_line, the
// survey's settings, every test's plan, as bwsurvey's setup does, without
// MPI) and where a --reference file's text goes. Each must accept it or
// refuse it with a UsageError of one line and bounded length; any other
// exception is a finding (a crash or a sanitizer report fails on its own).
#include <exception>
#include <string>
#include <vector>

#include "catalog/Registry.hpp"
#include "core/Benchmark.hpp"
#include "core/CollectiveBenchmark.hpp"
#include "core/Errors.hpp"
#include "model/References.hpp"
#include "run/CommandLine.hpp"
#include "run/SurveySettings.hpp"
#include "topology/Topology.hpp"

namespace bws::fuzz {

// "" when `message` is a fit UsageError message, else what is wrong with it.
inline std::string message_problem(const std::string& message) {
  if (message.empty()) return "an empty message";
  if (message.size() > kMaxErrorMessageChars) return "a message of " + std::to_string(message.size()) + " characters";
  for (char c : message)
    if (static_cast<unsigned char>(c) < 0x20) return "a control character in the message";
  return "";
}

// The survey's setup of a --config text: parse, settings, plans.
inline void set_up_survey_from_config(const std::string& text) {
  const char* const argv[] = {"bwsurvey", "--config", "fuzz.ini"};
  const run::CommandLine cl = run::parse_command_line(3, argv, [&](const std::string&) { return text; });
  if (catalog::requested_listing(cl.config)) return;
  const run::SurveySettings settings = run::parse_survey_settings(cl.config);
  static const topo::Topology topology =
      topo::Topology::synthetic("numa:1(memory=24GiB) pack:1 l3:1(size=32MiB) core:2 pu:1");
  const NodeContext node{topology, "node1", 0, 1, 0, 2, settings.quick, MachineSpeed{}, 0};
  const RankLayout ranks{0, 1, "node1", {0}, 1, topology.info().node_memory_bytes, 1, settings.quick, MachineSpeed{}, 0};
  for (const CatalogEntry* entry : settings.tests) {
    if (entry->name == "ocl") continue;  // the OpenCL runtime's start-up is not the INI reader's
    if (entry->collective())
      entry->make_collective()->plan(cl.config, ranks);
    else
      entry->make_benchmark()->plan(cl.config, node);
  }
}

// "" when both readers accepted `text` or refused it well; else the finding.
inline std::string ini_fuzz_finding(const std::string& text) {
  auto judge = [](const char* reader, auto&& action) -> std::string {
    try {
      action();
    } catch (const UsageError& e) {
      const std::string problem = message_problem(e.what());
      return problem.empty() ? "" : std::string(reader) + ": UsageError with " + problem + ": " + e.what();
    } catch (const std::exception& e) {
      return std::string(reader) + ": not a UsageError: " + e.what();
    } catch (...) {
      return std::string(reader) + ": a non-standard exception";
    }
    return "";
  };
  std::string finding = judge("--config", [&] { set_up_survey_from_config(text); });
  if (finding.empty())
    finding = judge("--reference", [&] { model::parse_references(text, "--reference 'fuzz.ini'", catalog::all_node_metrics()); });
  return finding;
}

}  // namespace bws::fuzz
