#pragma once
// How a survey file records its progress so that --resume can finish it,
// and what --resume reads back (rank 0). Before each step (the metadata
// "setup", each test's phase, the final "checks") the coordinator writes the
// step's name (`running_phase`) and the row count of every appendable
// dataset (`phase_start_rows`) to the root's attributes and flushes; a test
// whose rows are all stored is added to `completed_phases`, the metadata to
// `setup_complete`. A resume shrinks the file back to the mark of the step
// that did not finish, so no half-stored phase is kept twice.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "h5/ResultFile.hpp"

namespace bws::run {

// "path=rows;path=rows" and back (paths have no '=' or ';'). Pure.
std::string encode_row_counts(const std::map<std::string, std::uint64_t>& counts);
std::map<std::string, std::uint64_t> decode_row_counts(const std::string& text);

// The /config text of the survey file --resume names; UsageError naming
// --resume when it is missing, not a survey file, has no /config, or cannot
// be read (an HDF5 error: a truncated file, /config not text).
std::string read_stored_config(const std::string& path);

// Writes the mark of a step about to start (not flushed).
void mark_step_start(h5::ResultFile& file, const std::string& step);

struct ResumeState {
  std::vector<std::string> completed;  // tests whose phases are stored whole
  bool setup_complete = false;         // /nodes and /ranks are stored whole
  std::vector<std::string> rank_hosts; // /ranks/table hosts by rank, when setup_complete
  int resumes = 0;                     // earlier resumes of the file
  // The rows of the step that did not finish are dropped: every appendable
  // dataset goes back to these lengths (none when no step was cut).
  std::optional<std::map<std::string, std::uint64_t>> rows_to_keep;
};

// Every check of --resume, on the file opened read-only, so a refused resume
// leaves its bytes as they were: a complete file, another rank count, an
// attribute or a table (`tables_to_read`, those the resume reads back) that
// does not read as the schema says. UsageError naming --resume and the file.
// Rank 0.
ResumeState inspect_resume(const std::string& path, int ranks, const std::vector<std::string>& tables_to_read);

// Once inspect_resume passed and the file is open for writing: drops the
// rows of the step that did not finish.
void prepare_resume(h5::ResultFile& file, const ResumeState& state);

}  // namespace bws::run
