#include "run/ResumeState.hpp"

#include <algorithm>
#include <exception>
#include <new>

#include "core/Errors.hpp"
#include "core/PrintableText.hpp"
#include "core/FileGuard.hpp"
#include "core/OptionText.hpp"

namespace bws::run {

std::string encode_row_counts(const std::map<std::string, std::uint64_t>& counts) {
  std::string text;
  for (const auto& [path, rows] : counts) text += (text.empty() ? "" : ";") + path + "=" + std::to_string(rows);
  return text;
}

std::map<std::string, std::uint64_t> decode_row_counts(const std::string& text) {
  std::map<std::string, std::uint64_t> counts;
  std::size_t from = 0;
  while (from < text.size()) {
    const auto end = std::min(text.find(';', from), text.size());
    const std::string item = text.substr(from, end - from);
    const auto eq = item.rfind('=');
    if (eq == std::string::npos) throw RuntimeFailure("phase_start_rows: '" + item + "' is not path=rows");
    std::uint64_t rows = 0;
    if (read_whole_number(item.substr(eq + 1), rows) != NumberRead::Ok)
      throw RuntimeFailure("phase_start_rows: " + quoted_input(item) + " is not path=rows");
    counts[item.substr(0, eq)] = rows;
    from = end + 1;
  }
  return counts;
}

namespace {

// A resumed file that cannot be read as the survey it claims to be is bad
// input, named by --resume: an HDF5 error (a truncated file, an attribute or
// a dataset of the wrong type) becomes a UsageError too.
template <typename Step>
auto checked_read(const std::string& path, Step&& step) -> decltype(step()) {
  try {
    return step();
  } catch (const UsageError& e) {
    // One form for every refusal: the reader's own message (which may name
    // --resume or the file already) after "cannot be resumed".
    std::string message = e.what();
    if (message.rfind("--resume: '" + path + "'", 0) == 0) throw;  // this file's own refusal
    for (const std::string& prefix : {std::string("--resume: "), "'" + path + "': "})
      if (message.rfind(prefix, 0) == 0) message.erase(0, prefix.size());
    throw UsageError("--resume: '" + path + "' cannot be resumed: " + message);
  } catch (const RuntimeFailure& e) {
    throw UsageError("--resume: '" + path + "' cannot be resumed: " + e.what());
  } catch (const std::bad_alloc&) {  // a size read from the file
    throw UsageError("--resume: '" + path + "' cannot be resumed: it declares more than fits in memory");
  } catch (const std::exception& e) {  // a number that does not parse (std::stoull), a column of another type
    throw UsageError("--resume: '" + path + "' cannot be resumed: a malformed attribute or table (" + e.what() + ")");
  }
}

}  // namespace

std::string read_stored_config(const std::string& path) {
  // Before HDF5 opens it by name: a FIFO would block that open forever.
  require_regular_input("--resume", path);
  return checked_read(path, [&] {
    const auto reader = h5::ResultReader::open(path);
    if (!reader.exists("/config")) throw UsageError("'" + path + "' has no /config: it is not a survey file");
    // The reader shows an older schema's tables as today's; the writer
    // appends to them as stored, which only today's schema matches.
    const std::string version = reader.attribute_text("/", "schema_version");
    if (version.substr(0, version.find('.')) != std::to_string(h5::kSchemaMajor))
      throw UsageError("--resume: '" + path + "' has schema " + printable_text(version, 40) + "; this bwsurvey resumes " +
                       h5::schema_version() + " files (finish it with the bwsurvey that began it)");
    return reader.read_text("/config");
  });
}

void mark_step_start(h5::ResultFile& file, const std::string& step) {
  file.set_attribute("/", "phase_start_rows", encode_row_counts(file.appendable_lengths()));
  file.set_attribute("/", "running_phase", step);
}

ResumeState inspect_resume(const std::string& path, int ranks, const std::vector<std::string>& tables_to_read) {
  require_regular_input("--resume", path);
  return checked_read(path, [&] {
    const auto file = h5::ResultReader::open(path);
    const std::string status = file.has_attribute("/", "status") ? file.attribute_text("/", "status") : "";
    if (status == "complete")
      throw UsageError("--resume: '" + path + "' is complete; there is nothing to resume");
    if (!file.has_attribute("/", "n_ranks") || !file.has_attribute("/", "completed_phases"))
      throw UsageError("--resume: '" + path + "' holds no survey's progress (no n_ranks or completed_phases)");
    const std::int64_t stored_ranks = file.attribute_int("/", "n_ranks");
    if (stored_ranks != ranks)
      throw UsageError("--resume: '" + path + "' was measured by " + std::to_string(stored_ranks) +
                       " ranks; run the resume with as many (this run has " + std::to_string(ranks) + ")");

    ResumeState state;
    for (const std::string& name : split_comma_list(file.attribute_text("/", "completed_phases")))
      if (!name.empty()) state.completed.push_back(name);
    state.setup_complete = file.has_attribute("/", "setup_complete") && file.attribute_int("/", "setup_complete") == 1;
    state.resumes = file.has_attribute("/", "resumes") ? static_cast<int>(file.attribute_int("/", "resumes")) : 0;
    if (state.resumes < 0) throw UsageError("--resume: '" + path + "' has resumes < 0");

    const std::string running = file.has_attribute("/", "running_phase") ? file.attribute_text("/", "running_phase") : "";
    const bool unfinished = !running.empty() &&
                            std::find(state.completed.begin(), state.completed.end(), running) == state.completed.end() &&
                            !(running == "setup" && state.setup_complete);
    if (unfinished && file.has_attribute("/", "phase_start_rows"))
      state.rows_to_keep = decode_row_counts(file.attribute_text("/", "phase_start_rows"));

    if (state.setup_complete && file.exists("/ranks/table")) {
      const Table ranks_table = file.read_table("ranks/table");
      state.rank_hosts.assign(static_cast<std::size_t>(ranks), std::string());
      for (std::size_t r = 0; r < ranks_table.rows(); ++r) {
        const std::int64_t rank = ranks_table.get_int(r, "rank");
        if (rank >= 0 && rank < ranks) state.rank_hosts[static_cast<std::size_t>(rank)] = ranks_table.get_string(r, "host");
      }
    }
    // What the resume will read back must read: checked here, before the
    // file is opened for writing.
    for (const std::string& table : tables_to_read)
      if (file.exists("/" + table)) (void)file.read_table(table);
    return state;
  });
}

void prepare_resume(h5::ResultFile& file, const ResumeState& state) {
  if (state.rows_to_keep) file.truncate_appendables(*state.rows_to_keep);
}

}  // namespace bws::run
