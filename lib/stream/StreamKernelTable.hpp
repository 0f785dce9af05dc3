#pragma once
// The four STREAM 5.10 kernels as data, in the order they run (BabelStream
// keeps such a {label, weight} table; streamParanumal comments every byte
// term). Bytes are counted as STREAM counts them: every array element read
// once and written once, with no write-allocate traffic, so
// bytes = byte_weight x n x sizeof(T).
#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace bws::stream {

enum class StreamKernel { Copy, Scale, Add, Triad };
enum class StreamArray { A, B, C };

constexpr char array_letter(StreamArray array) {
  return array == StreamArray::A ? 'a' : array == StreamArray::B ? 'b' : 'c';
}

// STREAM 5.10's scalar for Scale and Triad.
inline constexpr double kStreamScalar = 3.0;

struct StreamKernelSpec {
  StreamKernel kernel;
  std::string_view label;    // as STREAM prints it
  std::string_view formula;  // what it computes, per element
  int arrays_read;
  StreamArray written;  // the one array it writes (validated for its row)
  int byte_weight;      // arrays_read + 1 written array
};

inline constexpr std::array<StreamKernelSpec, 4> kStreamKernels = {{
    // Copy  c = a:      reads a (1) + writes c (1)          = 2
    {StreamKernel::Copy, "Copy", "c = a", 1, StreamArray::C, 1 + 1},
    // Scale b = s*c:    reads c (1) + writes b (1)          = 2
    {StreamKernel::Scale, "Scale", "b = s*c", 1, StreamArray::B, 1 + 1},
    // Add   c = a+b:    reads a (1) + reads b (1) + writes c (1) = 3
    {StreamKernel::Add, "Add", "c = a + b", 2, StreamArray::C, 2 + 1},
    // Triad a = b+s*c:  reads b (1) + reads c (1) + writes a (1) = 3
    {StreamKernel::Triad, "Triad", "a = b + s*c", 2, StreamArray::A, 2 + 1},
}};

constexpr const StreamKernelSpec& kernel_spec(StreamKernel kernel) {
  return kStreamKernels[static_cast<std::size_t>(kernel)];
}

// Bytes one call of `kernel` moves over n elements of element_bytes each.
constexpr std::uint64_t kernel_bytes(StreamKernel kernel, std::uint64_t n, std::size_t element_bytes) {
  return static_cast<std::uint64_t>(kernel_spec(kernel).byte_weight) * n * element_bytes;
}

}  // namespace bws::stream

namespace bws::stream {

// A timed operation of one repetition: a kernel, or on a device with a
// memory of its own (backend "ocl") the transfer of the three arrays to it
// and back, as HPCC_FPGA times them (PCI write before the
// kernels, PCI read after them; 3 arrays moved once = byte weight 3).
enum class StreamOp { PciWrite, Copy, Scale, Add, Triad, PciRead };
inline constexpr std::size_t kStreamOps = 6;

struct StreamOpSpec {
  StreamOp op;
  std::string_view label;
  int byte_weight;
  bool transfer;  // PCI write/read: every array moved, all three validated
};

inline constexpr std::array<StreamOpSpec, kStreamOps> kStreamOpSpecs = {{
    {StreamOp::PciWrite, "PCI_write", 3, true},  // A, B, C host -> device
    {StreamOp::Copy, "Copy", kernel_spec(StreamKernel::Copy).byte_weight, false},
    {StreamOp::Scale, "Scale", kernel_spec(StreamKernel::Scale).byte_weight, false},
    {StreamOp::Add, "Add", kernel_spec(StreamKernel::Add).byte_weight, false},
    {StreamOp::Triad, "Triad", kernel_spec(StreamKernel::Triad).byte_weight, false},
    {StreamOp::PciRead, "PCI_read", 3, true},  // A, B, C device -> host
}};

constexpr const StreamOpSpec& op_spec(StreamOp op) { return kStreamOpSpecs[static_cast<std::size_t>(op)]; }
// The kernel an operation runs (transfers have none: Copy is returned).
constexpr StreamKernel kernel_of(StreamOp op) {
  return op == StreamOp::Scale ? StreamKernel::Scale
         : op == StreamOp::Add ? StreamKernel::Add
         : op == StreamOp::Triad ? StreamKernel::Triad
                                 : StreamKernel::Copy;
}
constexpr std::uint64_t op_bytes(StreamOp op, std::uint64_t n, std::size_t element_bytes) {
  return static_cast<std::uint64_t>(op_spec(op).byte_weight) * n * element_bytes;
}

}  // namespace bws::stream
