#pragma once
// Owning wrapper of an HDF5 identifier: every hid_t this folder opens is held
// by a Handle, so an exception thrown half-way through a write closes what
// was opened (a leaked id would keep the file open after ResultFile::close).
#include <hdf5.h>

#include <utility>

namespace bws::h5 {

class Handle {
 public:
  using Closer = herr_t (*)(hid_t);

  Handle() = default;
  Handle(hid_t id, Closer close) : id_(id), close_(close) {}
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  Handle(Handle&& other) noexcept
      : id_(std::exchange(other.id_, H5I_INVALID_HID)), close_(other.close_) {}
  Handle& operator=(Handle&& other) noexcept {
    if (this != &other) {
      reset();
      id_ = std::exchange(other.id_, H5I_INVALID_HID);
      close_ = other.close_;
    }
    return *this;
  }
  ~Handle() { reset(); }

  hid_t id() const { return id_; }
  bool valid() const { return id_ >= 0; }

  // Closes now and returns HDF5's status (a file close can fail and the
  // caller may want to report it); the destructor ignores it.
  herr_t reset() {
    herr_t status = 0;
    if (id_ >= 0 && close_ != nullptr) status = close_(id_);
    id_ = H5I_INVALID_HID;
    return status;
  }

 private:
  hid_t id_ = H5I_INVALID_HID;
  Closer close_ = nullptr;
};

}  // namespace bws::h5
