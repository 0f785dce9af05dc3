#pragma once
// HDF5 failures as bws::RuntimeFailure. HDF5's own error stack printing is
// switched off (it would write pages of traces to stderr); instead the
// innermost message of the stack goes into the exception, after the
// operation and the object it was applied to.
#include <hdf5.h>

#include <string_view>

#include "h5/Handles.hpp"

namespace bws::h5 {

// Switches off HDF5's automatic error printing (once per process).
void silence_hdf5_error_printing();

// Throws RuntimeFailure "HDF5: cannot <action> '<object>' in '<file>': <detail>".
// `context` is any open identifier in the file (names the file), or
// H5I_INVALID_HID when there is none yet.
[[noreturn]] void fail(hid_t context, std::string_view action, std::string_view object);

// Returns `id` when it is valid, else fails as above.
hid_t checked(hid_t id, hid_t context, std::string_view action, std::string_view object);
// Returns normally when `status` is not negative, else fails as above.
void checked(herr_t status, hid_t context, std::string_view action, std::string_view object);

// A Handle to `id` once it is checked.
inline Handle checked_handle(hid_t id, Handle::Closer close, hid_t context, std::string_view action,
                             std::string_view object) {
  return Handle(checked(id, context, action, object), close);
}

// Forgets the errors HDF5 recorded (after a failure that was expected, such
// as a probe for a missing link).
void clear_hdf5_errors();

}  // namespace bws::h5
