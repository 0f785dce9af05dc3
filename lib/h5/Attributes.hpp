#pragma once
// Attributes of an open group or dataset. Writing replaces an attribute of
// the same name whatever its old type; text is variable-length UTF-8.
#include <hdf5.h>

#include <cstdint>
#include <string>
#include <vector>

namespace bws::h5 {

void write_attribute(hid_t object, const std::string& name, const std::string& value);
void write_attribute(hid_t object, const std::string& name, std::int64_t value);
void write_attribute(hid_t object, const std::string& name, double value);
// A 1-D array of strings (column_units: one per column).
void write_attribute(hid_t object, const std::string& name, const std::vector<std::string>& values);

bool has_attribute(hid_t object, const std::string& name);
// The names of the object's attributes, in name order.
std::vector<std::string> attribute_names(hid_t object);
// Each throws RuntimeFailure when the attribute is missing or of another
// kind. Text reads fixed and variable-length strings; integer reads any
// integer type, real any integer or float type (HDF5 converts).
std::string read_text_attribute(hid_t object, const std::string& name);
std::vector<std::string> read_text_array_attribute(hid_t object, const std::string& name);
std::int64_t read_int_attribute(hid_t object, const std::string& name);
double read_real_attribute(hid_t object, const std::string& name);

}  // namespace bws::h5
