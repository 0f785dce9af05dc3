#pragma once
// One writer per survey file: a lock held for the life of the run that a
// second run sees before it removes or changes anything.
//  - The lock is a POSIX byte-range lock (fcntl F_SETLK) on a lock file
//    beside the target, "<target>.lock" (its directory resolved through
//    links, so two spellings of one file meet at one lock). fcntl locks are
//    seen by every process on the machine and, on NFS (lockd/NFSv4) and the
//    parallel file systems that implement them (Lustre with flock, GPFS,
//    BeeGFS), by processes on other nodes; where the file system has no
//    locks at all, the lock holds on this machine only.
//  - The lock file says who holds it ("pid N on host H since TIME"): the
//    refusal of a second run names the holder.
//  - The kernel drops the lock when its process ends, however it ends: a
//    lock file left by a killed run (kill -9, a lost node) holds no lock
//    and does not block the next run, which takes it over.
//  - At the end of the run the lock file is removed while still locked, so
//    no one can lock a name that is about to vanish (whoever locked the
//    old file checks that the name still leads to it, else tries again).
// fcntl locks belong to the process and go when any descriptor of the lock
// file in it closes: nothing else in the process may open the lock file.
#include <string>

namespace bws {

class FileLock {
 public:
  // Locks `target` for writing: UsageError naming `label` and the holder
  // ("--out: 'f.h5' is being written by pid 123 on host n1 since ...")
  // when another process holds the lock, or when the lock file is not a
  // regular file; RuntimeFailure when it cannot be made.
  static FileLock acquire(const std::string& label, const std::string& target);
  FileLock() = default;  // holds nothing
  FileLock(FileLock&& other) noexcept;
  FileLock& operator=(FileLock&& other) noexcept;
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;
  ~FileLock();

  bool held() const { return fd_ >= 0; }
  const std::string& path() const { return path_; }  // the lock file
  // Removes the lock file (while locked) and drops the lock. Idempotent.
  void release() noexcept;

 private:
  FileLock(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}
  int fd_ = -1;
  std::string path_;
};

// The lock file of `target`: "<dir>/<name>.lock", dir resolved through links.
std::string lock_path_of(const std::string& target);

}  // namespace bws
