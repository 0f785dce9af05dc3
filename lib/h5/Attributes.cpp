#include "h5/Attributes.hpp"

#include "h5/Failure.hpp"
#include "h5/Handles.hpp"
#include "h5/Objects.hpp"
#include "h5/ReadChecks.hpp"
#include "h5/Strings.hpp"

namespace bws::h5 {

namespace {

std::string attribute_label(hid_t object, const std::string& name) { return name_of(object) + "@" + name; }

// `stored_type` is the type in the file, `memory_type` the one of `data`.
void replace_attribute(hid_t object, const std::string& name, hid_t stored_type, hid_t memory_type, hid_t space,
                       const void* data) {
  const std::string label = attribute_label(object, name);
  const htri_t exists = H5Aexists(object, name.c_str());
  if (exists < 0) fail(object, "look up attribute", label);
  if (exists > 0) checked(H5Adelete(object, name.c_str()), object, "delete attribute", label);
  Handle attribute = checked_handle(H5Acreate2(object, name.c_str(), stored_type, space, H5P_DEFAULT, H5P_DEFAULT),
                                    H5Aclose, object, "create attribute", label);
  checked(H5Awrite(attribute.id(), memory_type, data), object, "write attribute", label);
}

Handle scalar_space(hid_t object) {
  return checked_handle(H5Screate(H5S_SCALAR), H5Sclose, object, "make a scalar dataspace for", name_of(object));
}

// "attribute '/stream/results@column_units'", for messages about a bad file.
std::string attribute_object(hid_t object, const std::string& name) {
  return "attribute '" + attribute_label(object, name) + "'";
}

Handle open_attribute(hid_t object, const std::string& name) {
  const std::string label = attribute_label(object, name);
  if (H5Aexists(object, name.c_str()) <= 0) {
    clear_hdf5_errors();
    bad_input(object, attribute_object(object, name), "is missing (docs/hdf5-schema.md)");
  }
  return checked_handle(H5Aopen(object, name.c_str(), H5P_DEFAULT), H5Aclose, object, "open attribute", label);
}

// Reads a one-element numeric attribute as `memory_type`. Integers always
// convert; floats only when `float_allowed` (an integer reader must not
// silently truncate 2.5).
template <typename T>
T read_number(hid_t object, const std::string& name, hid_t memory_type, bool float_allowed) {
  const std::string label = attribute_label(object, name);
  Handle attribute = open_attribute(object, name);
  Handle type = checked_handle(H5Aget_type(attribute.id()), H5Tclose, object, "get the type of", label);
  Handle space = checked_handle(H5Aget_space(attribute.id()), H5Sclose, object, "get the shape of", label);
  const H5T_class_t kind = H5Tget_class(type.id());
  if (!(kind == H5T_INTEGER || (float_allowed && kind == H5T_FLOAT)))
    bad_input(object, attribute_object(object, name),
              "holds " + type_class_noun(type.id()) + " where " + (float_allowed ? "a number" : "an integer") +
                  " belongs (docs/hdf5-schema.md)");
  const hssize_t points = H5Sget_simple_extent_npoints(space.id());
  if (points != 1)
    bad_input(object, attribute_object(object, name),
              "holds " + std::to_string(points) + " values where one belongs");
  T value{};
  checked(H5Aread(attribute.id(), memory_type, &value), object, "read attribute", label);
  return value;
}

}  // namespace

void write_attribute(hid_t object, const std::string& name, const std::string& value) {
  const Handle type = variable_utf8_type();
  const Handle space = scalar_space(object);
  const char* text = value.c_str();
  replace_attribute(object, name, type.id(), type.id(), space.id(), &text);
}

void write_attribute(hid_t object, const std::string& name, std::int64_t value) {
  const Handle space = scalar_space(object);
  replace_attribute(object, name, H5T_STD_I64LE, H5T_NATIVE_INT64, space.id(), &value);
}

void write_attribute(hid_t object, const std::string& name, double value) {
  const Handle space = scalar_space(object);
  replace_attribute(object, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, space.id(), &value);
}

void write_attribute(hid_t object, const std::string& name, const std::vector<std::string>& values) {
  const Handle type = variable_utf8_type();
  const hsize_t count = values.size();
  const Handle space = checked_handle(H5Screate_simple(1, &count, nullptr), H5Sclose, object,
                                      "make a dataspace for attribute", attribute_label(object, name));
  std::vector<const char*> texts;
  texts.reserve(values.size());
  for (const std::string& value : values) texts.push_back(value.c_str());
  replace_attribute(object, name, type.id(), type.id(), space.id(), texts.data());
}

bool has_attribute(hid_t object, const std::string& name) {
  const htri_t exists = H5Aexists(object, name.c_str());
  if (exists < 0) fail(object, "look up attribute", attribute_label(object, name));
  return exists > 0;
}

std::vector<std::string> read_text_array_attribute(hid_t object, const std::string& name) {
  const std::string label = attribute_label(object, name);
  Handle attribute = open_attribute(object, name);
  Handle type = checked_handle(H5Aget_type(attribute.id()), H5Tclose, object, "get the type of", label);
  Handle space = checked_handle(H5Aget_space(attribute.id()), H5Sclose, object, "get the shape of", label);
  const hid_t attribute_id = attribute.id();
  return read_strings(
      type.id(), space.id(), [attribute_id](hid_t memory_type, void* buffer) {
        return H5Aread(attribute_id, memory_type, buffer);
      },
      object, attribute_object(object, name), kMaxAttributeBytes);
}

std::string read_text_attribute(hid_t object, const std::string& name) {
  std::vector<std::string> values = read_text_array_attribute(object, name);
  if (values.size() != 1)
    bad_input(object, attribute_object(object, name),
              "holds " + std::to_string(values.size()) + " texts where one belongs");
  return values.front();
}

std::int64_t read_int_attribute(hid_t object, const std::string& name) {
  return read_number<std::int64_t>(object, name, H5T_NATIVE_INT64, false);
}

double read_real_attribute(hid_t object, const std::string& name) {
  return read_number<double>(object, name, H5T_NATIVE_DOUBLE, true);
}

namespace {
herr_t collect_attribute_name(hid_t, const char* name, const H5A_info_t*, void* names) {
  static_cast<std::vector<std::string>*>(names)->emplace_back(name);
  return 0;
}
}  // namespace

std::vector<std::string> attribute_names(hid_t object) {
  std::vector<std::string> names;
  hsize_t position = 0;
  checked(H5Aiterate2(object, H5_INDEX_NAME, H5_ITER_INC, &position, collect_attribute_name, &names), object,
          "list the attributes of", name_of(object));
  return names;
}

}  // namespace bws::h5
