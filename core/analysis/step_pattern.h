#pragma once
// The NVTX step pattern (docs/analysis.md, Steps), matched with RE2: linear time in the text and
// no recursion per character, so neither a 40,000-character NVTX text nor a pathological user
// pattern such as ((a*)*)*$ can overflow the stack or hang. Case-insensitive, whole-text match.
// RE2 syntax is Perl/ECMAScript-like without backreferences and lookaround. RE2's memory budget
// (kMaxMemBytes) bounds the compiled program and its DFA; the matching work is bounded too
// (checkWork).

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace re2 {
class RE2;
}

namespace skew {

const char* defaultStepRegex();

constexpr int64_t kMaxMemBytes = int64_t(32) << 20;  // RE2's max_mem for the step pattern

class StepPattern {
public:
    // Compiles `pattern` (empty: the default). Throws std::invalid_argument with RE2's reason.
    explicit StepPattern(const std::string& pattern = {});
    ~StepPattern();
    StepPattern(StepPattern&&) noexcept;
    StepPattern& operator=(StepPattern&&) noexcept;

    // One line saying why `pattern` does not compile, or empty when it does.
    static std::string check(const std::string& pattern);

    bool matches(std::string_view text) const;
    const std::string& source() const { return source_; }  // the pattern as given (empty: the default)

    // The bound on matching work (docs/analysis.md, Steps): when the DFA gives up, RE2 matches in
    // time proportional to the text times the program's size, so a user pattern is refused before
    // any matching when its program size times the bytes of the distinct texts to match exceeds
    // kMatchWorkBudget (about 10 s of the slowest matching). The default pattern is exempt: its DFA
    // stays small on any text. Throws std::invalid_argument saying so.
    static constexpr double kMatchWorkBudget = 2e9;
    void checkWork(uint64_t distinctTexts, uint64_t textBytes) const;

private:
    std::string source_;
    std::unique_ptr<re2::RE2> re_;
};

}  // namespace skew
