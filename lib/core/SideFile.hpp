#pragma once
// A text file a survey writes beside its HDF5 file (--pmbw.stats): every
// exporter's output goes through one, so they all follow the same rules.
//  - check_side_file() at planning time: only looks (a UsageError naming the
//    option), nothing is created, so a refused run leaves no side file.
//  - start() when the run starts: a fresh run creates the file (replaces it
//    with --force); a resumed run keeps it and appends.
//  - A phase's lines go to "<path>.part" first and are appended to the file
//    when the phase is complete, so the file holds whole phases only, like
//    the result file's completed_phases: a run cut off mid-phase leaves its
//    lines in the .part file, and the resume that measures the phase again
//    replaces it instead of repeating them.
#include <fstream>
#include <string>

#include "core/Config.hpp"
#include "core/TableExporter.hpp"

namespace bws {

// UsageError "<flag>: ..." (the option as the user spelled it) when its
// directory is missing or not writable, `path` is the survey's result file
// (--out or --resume) or an input (--config, --reference), it exists on a
// fresh run without --force, or it or its staging file exists and is not a
// regular text file (a device, a FIFO, a socket, a directory, a link, a
// binary file: never written or removed, --force or not; FileGuard's
// check_output_file). `config` gives those options' values.
void check_side_file(const std::string& flag, const std::string& path, const Config& config);

class SideFile {
 public:
  SideFile(std::string flag, std::string path);  // flag: "--pmbw.stats", for the messages
  const std::string& path() const { return path_; }
  std::string staging_path() const { return path_ + ".part"; }

  // Creates (Fresh) or keeps (Resume) the file and opens an empty staging
  // file. RuntimeFailure naming the option when it cannot.
  void start(ExportStart how);
  void write_line(const std::string& line);  // to the staging file
  // Closes the staging file until the next write_line, which appends to it
  // (an exporter with a file per rank keeps no file open between tables).
  void close_staging();
  // Appends the staged lines to the file and removes the staging file
  // (complete), or leaves them in the staging file (a phase cut short).
  void finish(bool complete);

 private:
  [[noreturn]] void fail(const std::string& what) const;
  std::string flag_;
  std::string path_;
  std::ofstream staging_;
  bool staged_ = false;  // this phase has lines in the staging file
};

}  // namespace bws
