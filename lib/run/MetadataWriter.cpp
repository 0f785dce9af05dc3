#include "run/MetadataWriter.hpp"

#include <cstdint>

#include "bws/Version.hpp"
#include "run/RunText.hpp"
#include "run/TestHooks.hpp"


namespace bws::run {

void write_run_attributes(h5::ResultFile& f, const CommandLine& cl, const RunWorld& world,
                          const std::vector<std::string>& tests) {
  f.set_attribute("/", "tool_version", std::string(BWS_VERSION));
  f.set_attribute("/", "git_commit", std::string(BWS_GIT_COMMIT));
  f.set_attribute("/", "created_utc", utc_now_iso8601());
  f.set_attribute("/", "finished_utc", std::string());
  f.set_attribute("/", "status", std::string("running"));
  f.set_attribute("/", "command_line", cl.text);
  f.set_attribute("/", "n_ranks", static_cast<std::int64_t>(world.size));
  f.set_attribute("/", "n_nodes", static_cast<std::int64_t>(world.layout.n_nodes));
  f.set_attribute("/", "mpi_library", mpi_library_version());
  f.set_attribute("/", "hwloc_version", hwloc_version_text());
  f.set_attribute("/", "compiler", compiler_text());
  f.set_attribute("/", "tests", joined(tests));
  f.set_attribute("/", "completed_phases", std::string());
  f.set_attribute("/", "test_hooks", test_hooks_compiled() ? joined(hook_variables_set()) : std::string());
  f.write_text("/config", cl.config.to_ini(invocation_only_keys()));
  f.set_attribute("/provenance", "host", world.layout.host);
  f.set_attribute("/provenance", "mpi_library", mpi_library_version());
  const auto environment = provenance_environment();
  for (const auto& [key, value] : environment) f.set_attribute("/provenance", key, value);
  for (const auto& [key, value] : slurm_provenance(environment)) f.set_attribute("/provenance", key, value);
}

void record_resume(h5::ResultFile& f, const CommandLine& cl, const ResumeState& state) {
  const std::string n = std::to_string(state.resumes + 1);
  f.set_attribute("/", "status", std::string("running"));
  f.set_attribute("/", "finished_utc", std::string());
  f.set_attribute("/", "resumes", static_cast<std::int64_t>(state.resumes + 1));
  f.set_attribute("/provenance", "resume_" + n + "_utc", utc_now_iso8601());
  f.set_attribute("/provenance", "resume_" + n + "_command_line", cl.text);
  f.set_attribute("/provenance", "resume_" + n + "_completed_before", joined(state.completed));
  for (const auto& [key, value] : slurm_provenance(provenance_environment()))
    f.set_attribute("/provenance", "resume_" + n + "_" + key, value);
}

void write_metadata_text(h5::ResultFile& file, const MetadataText& text) { file.write_text(text.path, text.text); }

}  // namespace bws::run
