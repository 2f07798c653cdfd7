#include "analysis/step_pattern.h"

#include <re2/re2.h>

#include <stdexcept>
#include <string>

namespace skew {
namespace {

std::unique_ptr<re2::RE2> compile(const std::string& pattern) {
    re2::RE2::Options o;
    o.set_case_sensitive(false);
    o.set_log_errors(false);
    o.set_max_mem(kMaxMemBytes);  // a bound on the compiled program and its DFA, not on the work per text
    return std::make_unique<re2::RE2>(pattern.empty() ? defaultStepRegex() : pattern, o);
}

// Why a pattern did not compile, in words (RE2's "pattern too large - compile failed" named as the
// limit it is).
std::string compileError(const re2::RE2& re) {
    if (re.error_code() == re2::RE2::ErrorPatternTooLarge)
        return "the pattern is too expensive: RE2 compiles it to more than its " + std::to_string(kMaxMemBytes >> 20) +
               " MB budget (a counted repetition of a large class, such as \\pL{1000}, multiplies its size); simplify it";
    return re.error();
}

}  // namespace

const char* defaultStepRegex() {
    return R"(^(ProfilerStep#\d+|iteration\b.*|iter\b.*|step\b.*|train[_ ]?step\b.*|sample_\d+.*)$)";
}

StepPattern::StepPattern(const std::string& pattern) : source_(pattern), re_(compile(pattern)) {
    if (!re_->ok()) throw std::invalid_argument("not a valid step pattern: " + compileError(*re_));
}

StepPattern::~StepPattern() = default;
StepPattern::StepPattern(StepPattern&&) noexcept = default;
StepPattern& StepPattern::operator=(StepPattern&&) noexcept = default;

std::string StepPattern::check(const std::string& pattern) {
    auto re = compile(pattern);
    return re->ok() ? std::string() : compileError(*re);
}

bool StepPattern::matches(std::string_view text) const {
    return re2::RE2::FullMatch(re2::StringPiece(text.data(), text.size()), *re_);
}

void StepPattern::checkWork(uint64_t distinctTexts, uint64_t textBytes) const {
    if (source_.empty()) return;
    const double work = double(re_->ProgramSize()) * double(textBytes);
    if (work <= kMatchWorkBudget) return;
    const uint64_t tenthsMb = (textBytes + 50'000) / 100'000;  // (integers: no locale in the number)
    throw std::invalid_argument("the step pattern '" + source_ + "' is too expensive to match against this capture's " +
                                std::to_string(distinctTexts) + " distinct NVTX texts (" + std::to_string(tenthsMb / 10) + "." +
                                std::to_string(tenthsMb % 10) + " MB): RE2's program of " + std::to_string(re_->ProgramSize()) +
                                " instructions times that text is beyond the bound on matching work. Simplify it: a counted "
                                "repetition such as .{30} between .* makes it large; a literal start (step_.*) fails early");
}

}  // namespace skew
