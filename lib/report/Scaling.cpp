// bwreport scaling FILE: the linear-scaling check of a merged scaling study
// (model/ScalingStudy.hpp): per run the natural ring's b_eff(n) against
// n x the per-rank reference and E(n), the least-squares line through the
// origin and its efficiency, each a check. Stored in FILE as /scaling/points,
// /scaling/fit and /checks (replacing an earlier verdict); exit 3 when a
// check fails.
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ostream>
#include <vector>

#include <boost/program_options/options_description.hpp>

#include "core/Errors.hpp"
#include "core/FileGuard.hpp"
#include "core/PrintableText.hpp"
#include "core/OptionText.hpp"
#include "core/Report.hpp"
#include "core/ResultColumns.hpp"
#include "h5/ResultFile.hpp"
#include "model/ScalingStudy.hpp"
#include "report/CommandOptions.hpp"
#include "report/ReportCommand.hpp"
#include "report/SurveyTables.hpp"

namespace po = boost::program_options;

namespace bws::report {
namespace {

std::string gbps(double Bps) { return significant(Bps / 1e9, 4); }

std::vector<model::StudyRun> read_runs(const h5::ResultReader& file, std::vector<std::string>& skipped) {
  std::vector<model::StudyRun> runs;
  for (const std::string& name : file.list("/runs")) {
    const std::string group = "runs/" + name;
    const std::string summary = group + "/beff/summary";
    if (!file.exists("/" + summary)) {
      skipped.push_back(printable_text(name, 200) + " (no b_eff)");
      continue;
    }
    const Table t = file.read_table(summary);
    for (std::size_t r = 0; r < t.rows(); ++r) {
      if (t.get_string(r, "ring_kind") != "natural") continue;
      runs.push_back({printable_text(name, 200), static_cast<int>(file.attribute_int("/" + group, "n_nodes")),
                      static_cast<int>(t.get_int(r, "ranks")), t.get_double(r, "b_eff_Bps")});
      break;
    }
  }
  return runs;
}

Table points_table(const model::ScalingStudy& s) {
  Table t("scaling/points", {text_column("run", 64), int_column("nodes"), int_column("ranks"),
                             real_column("b_eff_Bps", "B/s"), real_column("ideal_Bps", "B/s"),
                             real_column("fit_Bps", "B/s"), real_column("efficiency"), int_column("passed")});
  for (const model::StudyPoint& p : s.points)
    t.add_row({{"run", p.run.name},
               {"nodes", p.run.nodes},
               {"ranks", p.run.ranks},
               {"b_eff_Bps", p.run.beff_Bps},
               {"ideal_Bps", p.ideal_Bps},
               {"fit_Bps", p.fit_Bps},
               {"efficiency", p.efficiency},
               {"passed", p.passed}});
  return t;
}

Table fit_table(const model::ScalingStudy& s) {
  Table t("scaling/fit", {text_column("reference_run", 64), real_column("reference_per_rank_Bps", "B/s"),
                          real_column("slope_Bps_per_rank", "B/s"), real_column("r2"), real_column("fit_efficiency"),
                          real_column("min_efficiency"), int_column("runs"), int_column("passed")});
  t.add_row({{"reference_run", s.reference_run},
             {"reference_per_rank_Bps", s.reference_per_rank_Bps},
             {"slope_Bps_per_rank", s.fit.valid ? s.fit.slope_Bps_per_rank : std::nan("")},
             {"r2", s.fit.valid ? s.fit.r_squared : std::nan("")},
             {"fit_efficiency", s.fit_efficiency},
             {"min_efficiency", s.min_efficiency},
             {"runs", static_cast<std::int64_t>(s.points.size())},
             {"passed", s.checks.back().passed}});
  return t;
}

// --out as an output: never FILE (under any name), a link or a device; an
// existing file only with --force and only when it is an HDF5 file.
OutputRules out_rules(const std::string& path, bool force) {
  return {"bwreport scaling: --out", force, {path}, OwnFile::Hdf5};
}

// FILE's bytes into `copy` (a scratch file), in bounded chunks from the
// descriptor of the input opened by core/FileGuard's rules.
void copy_input(const std::string& path, AtomicFile& copy) {
  InputFile input = InputFile::open("bwreport scaling: FILE", path);
  std::vector<char> buffer(std::size_t{1} << 20);
  for (off_t at = 0;;) {
    const ssize_t n = ::pread(input.fd(), buffer.data(), buffer.size(), at);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw RuntimeFailure("cannot read '" + printable_text(path, 200) + "': " + std::strerror(errno));
    if (n == 0) break;
    copy.write({buffer.data(), static_cast<std::size_t>(n)});
    at += n;
  }
  copy.stream().flush();
  if (!copy.stream()) throw RuntimeFailure("a write failed (disk full?)");
}

// The verdicts go into a copy of the study (FILE is an input: no bwreport
// command changes one), written to a fresh scratch file beside OUT and
// renamed into place once complete, so OUT is never a half-written file.
void store_verdicts(const std::string& path, const std::string& out_path, bool force, const model::ScalingStudy& study,
                    double min_efficiency, std::ostream& out) {
  AtomicFile output(out_path, out_rules(path, force));
  try {
    copy_input(path, output);
    h5::ResultFile file = h5::ResultFile::open_existing(output.scratch_path(), "bwreport scaling --out");
    file.remove("/scaling");
    file.remove("/checks");
    file.append(points_table(study));
    file.append(fit_table(study));
    Table checks = make_checks_table();
    for (const CheckRow& c : study.checks) add_check(checks, c);
    file.append(checks);
    file.set_attribute("/scaling", "min_efficiency", min_efficiency);
    file.close();
    output.commit();
  } catch (const UsageError&) {
    throw;
  } catch (const std::exception& e) {
    throw RuntimeFailure("bwreport scaling: --out: cannot write '" + printable_text(out_path, 200) +
                         "': " + printable_text(e.what(), 300));
  }
  out << "stored in " << printable_text(out_path) << ": /scaling/points, /scaling/fit, /checks\n";
}

struct ScalingOptions : TypedOptions {
  double min_efficiency = 0;
  std::string out;  // "" when not given
  bool force = false, no_store = false;
};

const OptionSchema<ScalingOptions>& scaling_schema() {
  static const OptionSchema<ScalingOptions> schema({
      bind_option(real_option("min-efficiency", "0.8", 0, 10, "",
                              "a run passes when E(n) = b_eff(n) / (n x reference per rank) >= this")
                      .above_min(),
                  &ScalingOptions::min_efficiency),
      bind_option(text_option("out", "",
                              "write a copy of FILE with the verdicts (/scaling/points, /scaling/fit, /checks) to "
                              "this new file; default: none (only print); FILE itself is never changed"),
                  &ScalingOptions::out),
      bind_option(flag_option("force", false, "with --out: replace an existing file (never FILE itself)"),
                  &ScalingOptions::force),
      bind_option(flag_option("no-store", false, "only print (the default; kept for older scripts)"),
                  &ScalingOptions::no_store),
  });
  return schema;
}

int run_scaling(const CommandArgs& args, std::ostream& out) {
  po::options_description desc("Options");
  add_command_options(desc, scaling_schema().list());
  const ParsedCommand parsed = parse_command("scaling", args, desc, 1, 1);
  if (parsed.help) {
    print_command_help(out, scaling_command(), desc);
    return 0;
  }
  const std::string& path = parsed.positional[0];
  const ScalingOptions o = read_command_options("scaling", scaling_schema(), parsed);
  const double min_efficiency = o.min_efficiency;

  // Every output check before anything is printed.
  const bool store = !o.out.empty() && !o.no_store;
  if (store) {
    const std::string& out_path = o.out;
    refuse_output_over_input("scaling", "--out", out_path, {path});
    check_output_file(out_path, out_rules(path, o.force));
  }
  std::vector<std::string> skipped;
  std::vector<model::StudyRun> runs;
  {
    const auto file = h5::ResultReader::open(path);
    if (!is_merged_file(file))
      throw UsageError("bwreport scaling: '" + printable_text(path, 200) +
                       "' is not a merged scaling study; make one with bwreport merge");
    runs = read_runs(file, skipped);
  }
  if (runs.empty())
    throw UsageError("bwreport scaling: no run of '" + printable_text(path, 200) + "' has b_eff (/beff/summary)");
  const model::ScalingStudy study = model::analyse_scaling_study(runs, min_efficiency);

  out << "Scaling study " << printable_text(path) << ": " << runs.size() << (runs.size() == 1 ? " run" : " runs")
      << "; reference " << gbps(study.reference_per_rank_Bps) << " GB/s per rank (" << printable_text(study.reference_run, 200) << ")\n";
  std::vector<std::vector<std::string>> rows;
  for (const model::StudyPoint& p : study.points) {
    char e[32];
    std::snprintf(e, sizeof e, "%.3f", p.efficiency);
    rows.push_back({p.run.name, std::to_string(p.run.nodes), std::to_string(p.run.ranks), gbps(p.run.beff_Bps),
                    gbps(p.ideal_Bps), gbps(p.fit_Bps), e, p.passed ? "passed" : "FAILED"});
  }
  for (const std::string& line :
       format_text_table({"run", "nodes", "ranks", "b_eff GB/s", "n x ref GB/s", "line GB/s", "E(n)", "verdict"}, rows))
    out << line << "\n";
  char line[256];
  std::snprintf(line, sizeof line,
                "least-squares line through the origin: b_eff = %.4g GB/s x n (R^2 %.3f); E_fit = %.3f (min %.2f): %s\n",
                study.fit.slope_Bps_per_rank / 1e9, study.fit.r_squared, study.fit_efficiency, min_efficiency,
                study.checks.back().passed ? "passed" : "FAILED");
  out << line;
  for (const std::string& s : skipped) out << "skipped: " << s << "\n";

  bool all_passed = true;
  for (const CheckRow& c : study.checks) all_passed = all_passed && c.passed;
  if (store)
    store_verdicts(path, o.out, o.force, study,
                   min_efficiency, out);
  return all_passed ? kExitOk : kExitCheckFailed;
}

}  // namespace

ReportCommand scaling_command() {
  return {"scaling",
          "scaling FILE [--min-efficiency E] [--out OUT]   b_eff(n) against n x the per-rank reference, the line "
          "through the origin, E(n); with --out, a copy of FILE (a merged study) with the verdicts",
          run_scaling};
}

}  // namespace bws::report
