#pragma once
// A fast 64-bit checksum over a byte stream: the profile cache's snapshots (their payload and
// each column), and the fingerprint that tells whether an export changed (util/file_identity.h).

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace skew {

// Four independent lanes of multiply-rotate over 8-byte words (no bit of the data escapes every
// lane), folded with the length at the end.
class Checksum {
public:
    void update(const void* data, size_t len) {
        const unsigned char* p = static_cast<const unsigned char*>(data);
        total_ += len;
        while (len > 0 && fill_ > 0) {  // finish a started block
            block_[fill_++] = *p++;
            --len;
            if (fill_ == 32) mix(block_), fill_ = 0;
        }
        while (len >= 32) {
            mix(p);
            p += 32;
            len -= 32;
        }
        while (len > 0) block_[fill_++] = *p++, --len;
    }
    uint64_t final() const {
        uint64_t l[4] = {lane_[0], lane_[1], lane_[2], lane_[3]};
        unsigned char tail[32] = {};
        std::memcpy(tail, block_, fill_);
        for (int i = 0; i < 4; ++i) {
            uint64_t w;
            std::memcpy(&w, tail + 8 * i, 8);
            l[i] = rotl(l[i] + w * kP2, 31) * kP1;
        }
        uint64_t h = rotl(l[0], 1) + rotl(l[1], 7) + rotl(l[2], 12) + rotl(l[3], 18) + total_ * kP3;
        h ^= h >> 33;
        h *= kP2;
        h ^= h >> 29;
        return h;
    }

private:
    static constexpr uint64_t kP1 = 0x9E3779B185EBCA87ull, kP2 = 0xC2B2AE3D27D4EB4Full, kP3 = 0x165667B19E3779F9ull;
    static uint64_t rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }
    void mix(const unsigned char* p) {
        for (int i = 0; i < 4; ++i) {
            uint64_t w;
            std::memcpy(&w, p + 8 * i, 8);
            lane_[i] = rotl(lane_[i] + w * kP2, 31) * kP1;
        }
    }
    uint64_t lane_[4] = {kP1 + kP2, kP2, 0, ~kP1};
    unsigned char block_[32] = {};
    size_t fill_ = 0;
    uint64_t total_ = 0;
};

}  // namespace skew
