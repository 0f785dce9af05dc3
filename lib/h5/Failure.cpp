#include "h5/Failure.hpp"

#include <mutex>
#include <string>

#include "core/Errors.hpp"

namespace bws::h5 {

namespace {

// Walking upward starts at the function that detected the error: its
// description is the specific one ("unable to open file: ... errno = 2").
herr_t keep_innermost(unsigned n, const H5E_error2_t* error, void* out) {
  if (n == 0 && error != nullptr && error->desc != nullptr) *static_cast<std::string*>(out) = error->desc;
  return 0;
}

std::string take_hdf5_error_detail() {
  std::string detail;
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, keep_innermost, &detail);
  H5Eclear2(H5E_DEFAULT);
  return detail;
}

std::string file_name_of(hid_t context) {
  if (context < 0) return {};
  const ssize_t length = H5Fget_name(context, nullptr, 0);
  if (length <= 0) return {};
  std::string name(static_cast<std::size_t>(length) + 1, '\0');
  H5Fget_name(context, name.data(), name.size());
  name.resize(static_cast<std::size_t>(length));
  return name;
}

}  // namespace

void silence_hdf5_error_printing() {
  static std::once_flag once;
  std::call_once(once, [] { H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr); });
}

void clear_hdf5_errors() { H5Eclear2(H5E_DEFAULT); }

void fail(hid_t context, std::string_view action, std::string_view object) {
  // First: every HDF5 API call (H5Fget_name too) clears the error stack.
  const std::string detail = take_hdf5_error_detail();
  std::string message = "HDF5: cannot ";
  message += action;
  message += " '";
  message += object;
  message += "'";
  const std::string file = file_name_of(context);
  if (!file.empty()) message += " in '" + file + "'";
  // HDF5's descriptions may end in a newline or hold several lines ("addr
  // overflow\n..."): RuntimeFailure folds the message onto one line.
  if (!detail.empty()) message += ": " + detail;
  throw RuntimeFailure(message);
}

hid_t checked(hid_t id, hid_t context, std::string_view action, std::string_view object) {
  if (id < 0) fail(context, action, object);
  return id;
}

void checked(herr_t status, hid_t context, std::string_view action, std::string_view object) {
  if (status < 0) fail(context, action, object);
}

}  // namespace bws::h5
