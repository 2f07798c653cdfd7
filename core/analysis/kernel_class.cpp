#include "analysis/kernel_class.h"

#include <cctype>

namespace skew {

bool isGemmName(const std::string& name) {
    std::string l(name);
    for (char& c : l) c = char(std::tolower(static_cast<unsigned char>(c)));
    for (const char* t : {"gemm", "cutlass", "xmma", "nvjet", "cublas", "wgmma", "matmul"})
        if (l.find(t) != std::string::npos) return true;
    return false;
}

bool GemmNames::operator()(StrId name) const {
    if (name >= known_.size()) known_.resize(size_t(name) + 1, -1);
    int8_t& v = known_[name];
    if (v < 0) v = isGemmName(strings_.str(name)) ? 1 : 0;
    return v == 1;
}

}  // namespace skew
