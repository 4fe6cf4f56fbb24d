// Byte units. qsel prints every size it computes in GB (10^9 bytes); memory sold by
// its label (VRAM, HBM, unified memory, system RAM) is binary, so a vendor's "80 GB"
// is 80 GiB (docs/memory.md, "Units").
#pragma once

namespace qsel {

inline constexpr double kBytesPerGB = 1e9;
inline constexpr double kBytesPerGiB = 1073741824.0;
inline constexpr double kBytesPerMiB = 1048576.0;
// GB in one GiB: a labelled capacity in GiB times this is GB.
inline constexpr double kGiBInGB = kBytesPerGiB / kBytesPerGB;

}  // namespace qsel
