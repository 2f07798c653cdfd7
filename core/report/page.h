#pragma once
// A report page as plain text or as Markdown: the headings, lines and bullets of the findings
// (analysis_report.cpp) and the comparison (compare_report.cpp), each written in both forms here.

#include <string>
#include <utility>

namespace skew {

class ReportPage {
public:
    explicit ReportPage(bool markdown) : md_(markdown) {}
    bool markdown() const { return md_; }

    void h1(const std::string& s) { o_ += md_ ? "# " + s + "\n\n" : s + "\n" + std::string(s.size(), '=') + "\n\n"; }
    void h2(const std::string& s) { o_ += md_ ? "\n## " + s + "\n\n" : "\n" + s + "\n" + std::string(s.size(), '-') + "\n"; }
    void line(const std::string& s) { o_ += (md_ ? "" : "  ") + s + (md_ ? "  \n" : "\n"); }
    void bullet(const std::string& s) { o_ += (md_ ? "- " : "  - ") + s + "\n"; }
    void subBullet(const std::string& s) { o_ += (md_ ? "  - " : "    - ") + s + "\n"; }
    void raw(const std::string& s) { o_ += s; }

    std::string take() { return std::move(o_); }

private:
    bool md_;
    std::string o_;
};

}  // namespace skew
