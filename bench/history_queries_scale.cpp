// The history queries at scale: generates an archive of NODES x METRICS x
// SURVEYS values (ArchiveSchema.hpp; 3 cohorts, 1 % noise, one node in 100
// with a 20 % step, one site-wide step), then times `bwreport history
// changes` (all series, and one --node), and `history baseline`. Prints the
// archive's size and the times; docs/PERFORMANCE.md keeps a run.
//   history_queries_scale [NODES=1000] [METRICS=10] [SURVEYS=100] [DIR=/tmp]
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <random>
#include <sstream>
#include <string>

#include "catalog/Registry.hpp"
#include "history/ArchiveSchema.hpp"
#include "history/HistoryCommands.hpp"
#include "history/Sqlite.hpp"

using namespace bws;

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Metric names the catalog knows (so that baseline keeps them), grouped
// ones with their first group.
std::vector<std::pair<std::string, std::string>> metric_names(std::size_t wanted) {
  std::vector<std::pair<std::string, std::string>> names;
  for (const auto& m : catalog::all_node_metrics()) {
    std::string name = m.name;
    if (!m.group_by.empty()) {
      std::string group;
      for (std::size_t g = 0; g < m.group_by.size(); ++g)
        group += (g ? "," : "") + (g < m.group_values.size() && !m.group_values[g].empty() ? m.group_values[g][0] : "x");
      name += "[" + group + "]";
    }
    names.push_back({name, m.unit});
    if (names.size() == wanted) break;
  }
  return names;
}

}  // namespace

int main(int argc, char** argv) {
  const int nodes = argc > 1 ? std::atoi(argv[1]) : 1000;
  const std::size_t metrics_wanted = argc > 2 ? std::atoi(argv[2]) : 10;
  const int surveys = argc > 3 ? std::atoi(argv[3]) : 100;
  const std::string dir = argc > 4 ? argv[4] : "/tmp";
  const std::string path = dir + "/history_scale." + std::to_string(::getpid()) + ".db";
  const auto metrics = metric_names(metrics_wanted);
  std::mt19937_64 rng(17);
  std::normal_distribution<double> noise(0, 0.01);

  auto t0 = std::chrono::steady_clock::now();
  {
    history::SqliteDb db(path, history::SqliteDb::Mode::kReadWriteCreate);
    db.exec(history::kArchiveSchemaSql);
    db.exec("BEGIN");
    for (int c = 0; c < 3; ++c) db.exec("INSERT INTO cohorts(id, name) VALUES(" + std::to_string(c + 1) + ", 'cohort" + std::to_string(c) + "')");
    for (int h = 0; h < nodes; ++h) db.exec("INSERT INTO hosts(id, name) VALUES(" + std::to_string(h + 1) + ", 'n" + std::to_string(h) + "')");
    for (std::size_t m = 0; m < metrics.size(); ++m) {
      auto st = db.prepare("INSERT INTO metrics(id, name, unit, higher_is_better) VALUES(?1, ?2, ?3, ?4)");
      st.bind(1, static_cast<std::int64_t>(m + 1)).bind(2, metrics[m].first).bind(3, metrics[m].second);
      st.bind(4, metrics[m].second == "s" ? 0 : 1);
      st.step();
    }
    for (int s = 0; s < surveys; ++s) {
      auto st = db.prepare(
          "INSERT INTO surveys(id, path, sha256, started_utc, started_unix_s, job_id, nodes, n_nodes, tool_version, "
          "commit_id, config_sha256, status, added_utc) VALUES(?1, 'p', ?2, ?3, ?4, '', '', 0, 't', 'c', 'x', "
          "'complete', '')");
      char utc[32];
      std::snprintf(utc, sizeof utc, "2026-01-01T00:00:%02dZ", s % 60);
      st.bind(1, static_cast<std::int64_t>(s + 1)).bind(2, "sha" + std::to_string(s)).bind(3, std::string(utc));
      st.bind(4, static_cast<std::int64_t>(1767225600 + s * 86400));
      st.step();
    }
    auto insert = db.prepare(
        "INSERT INTO node_values(survey_id, host_id, metric_id, value, cohort_id, valid, flagged) "
        "VALUES(?1, ?2, ?3, ?4, ?5, 1, 0)");
    for (int h = 0; h < nodes; ++h)
      for (std::size_t m = 0; m < metrics.size(); ++m)
        for (int s = 0; s < surveys; ++s) {
          double level = 1e9 * (10 + 10 * (h % 3));
          if (h % 100 == 7 && s >= surveys / 2) level *= 0.8;  // one node in 100 steps down
          if (s >= 3 * surveys / 4) level *= 0.9;             // a site-wide step
          insert.reset();
          insert.bind(1, static_cast<std::int64_t>(s + 1)).bind(2, static_cast<std::int64_t>(h + 1));
          insert.bind(3, static_cast<std::int64_t>(m + 1)).bind(4, level * (1 + noise(rng)));
          insert.bind(5, static_cast<std::int64_t>(h % 3 + 1));
          insert.step();
        }
    db.exec("COMMIT");
  }
  const double generate_s = seconds_since(t0);
  const double size_mb = std::filesystem::file_size(path) / 1e6;

  std::ostringstream sink;
  t0 = std::chrono::steady_clock::now();
  history::history_changes_command().run({path, "--format", "tsv"}, sink);
  const double changes_s = seconds_since(t0);
  std::size_t rows = 0;
  for (char c : sink.str()) rows += c == '\n';
  t0 = std::chrono::steady_clock::now();
  std::ostringstream one;
  history::history_changes_command().run({path, "--node", "n7"}, one);
  const double node_s = seconds_since(t0);
  t0 = std::chrono::steady_clock::now();
  std::ostringstream baseline;
  history::history_baseline_command().run({path, "--out", path + ".ini"}, baseline);
  const double baseline_s = seconds_since(t0);

  std::printf("archive: %d nodes x %zu metrics x %d surveys = %.0f values, %.1f MB, generated in %.1f s\n", nodes,
              metrics.size(), surveys, static_cast<double>(nodes) * metrics.size() * surveys, size_mb, generate_s);
  std::printf("history changes (all series): %.2f s, %zu change rows (expected about %zu node + %zu survey-wide)\n",
              changes_s, rows - 1, static_cast<std::size_t>((nodes + 92) / 100) * metrics.size(), 3 * metrics.size());
  std::printf("history changes --node n7: %.2f s\n", node_s);
  std::printf("history baseline: %.2f s\n", baseline_s);
  if (std::getenv("BWS_KEEP_ARCHIVE")) {
    std::printf("kept %s\n%s%s", path.c_str(), sink.str().c_str(), one.str().c_str());
    return 0;
  }
  std::filesystem::remove(path);
  std::filesystem::remove(path + ".ini");
  return 0;
}
