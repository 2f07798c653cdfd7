#include "analysis/step_pattern.h"

#include <re2/re2.h>

#include <stdexcept>

namespace skew {
namespace {

std::unique_ptr<re2::RE2> compile(const std::string& pattern) {
    re2::RE2::Options o;
    o.set_case_sensitive(false);
    o.set_log_errors(false);
    o.set_max_mem(int64_t(32) << 20);  // a bound on the compiled program, not on the text
    return std::make_unique<re2::RE2>(pattern.empty() ? defaultStepRegex() : pattern, o);
}

}  // namespace

const char* defaultStepRegex() {
    return R"(^(ProfilerStep#\d+|iteration\b.*|iter\b.*|step\b.*|train[_ ]?step\b.*|sample_\d+.*)$)";
}

StepPattern::StepPattern(const std::string& pattern) : source_(pattern), re_(compile(pattern)) {
    if (!re_->ok()) throw std::invalid_argument("not a valid step pattern: " + re_->error());
}

StepPattern::~StepPattern() = default;
StepPattern::StepPattern(StepPattern&&) noexcept = default;
StepPattern& StepPattern::operator=(StepPattern&&) noexcept = default;

std::string StepPattern::check(const std::string& pattern) {
    auto re = compile(pattern);
    return re->ok() ? std::string() : re->error();
}

bool StepPattern::matches(std::string_view text) const {
    return re2::RE2::FullMatch(re2::StringPiece(text.data(), text.size()), *re_);
}

}  // namespace skew
