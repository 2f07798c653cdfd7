#pragma once
// A tiny JSON reader for tests: enough to check what the CLI prints.

#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace testjson {

struct Value {
    enum Type { Null, Bool, Number, String, Array, Object } type = Null;
    bool b = false;
    double num = 0;
    std::string raw;  // number text, for exact integers
    std::string str;
    std::vector<Value> arr;
    std::vector<std::pair<std::string, Value>> obj;

    const Value& operator[](const std::string& k) const {
        for (const auto& [key, v] : obj)
            if (key == k) return v;
        throw std::out_of_range("no key " + k);
    }
    const Value& operator[](size_t i) const { return arr.at(i); }
    bool has(const std::string& k) const {
        for (const auto& [key, v] : obj)
            if (key == k) return true;
        return false;
    }
    int64_t i64() const { return std::stoll(raw); }
    size_t size() const { return type == Array ? arr.size() : obj.size(); }
    bool isNull() const { return type == Null; }
};

class Parser {
public:
    explicit Parser(const std::string& s) : s_(s) {}
    Value parse() {
        Value v = value();
        ws();
        if (i_ != s_.size()) throw std::runtime_error("trailing data");
        return v;
    }

private:
    void ws() {
        while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\t' || s_[i_] == '\r')) ++i_;
    }
    char peek() {
        ws();
        if (i_ >= s_.size()) throw std::runtime_error("unexpected end");
        return s_[i_];
    }
    void expect(char c) {
        if (peek() != c) throw std::runtime_error(std::string("expected ") + c + " at " + std::to_string(i_));
        ++i_;
    }
    std::string string() {
        expect('"');
        std::string out;
        while (i_ < s_.size() && s_[i_] != '"') {
            char c = s_[i_++];
            if (c == '\\') {
                char e = s_[i_++];
                switch (e) {
                case 'n': out += '\n'; break;
                case 't': out += '\t'; break;
                case 'r': out += '\r'; break;
                case 'u': out += char(std::stoi(s_.substr(i_, 4), nullptr, 16)); i_ += 4; break;
                default: out += e;
                }
            } else {
                out += c;
            }
        }
        ++i_;
        return out;
    }
    Value value() {
        Value v;
        char c = peek();
        if (c == '{') {
            ++i_;
            v.type = Value::Object;
            if (peek() == '}') return ++i_, v;
            for (;;) {
                std::string k = string();
                expect(':');
                v.obj.emplace_back(k, value());
                if (peek() == ',') { ++i_; continue; }
                expect('}');
                return v;
            }
        }
        if (c == '[') {
            ++i_;
            v.type = Value::Array;
            if (peek() == ']') return ++i_, v;
            for (;;) {
                v.arr.push_back(value());
                if (peek() == ',') { ++i_; continue; }
                expect(']');
                return v;
            }
        }
        if (c == '"') {
            v.type = Value::String;
            v.str = string();
            return v;
        }
        if (s_.compare(i_, 4, "true") == 0) { i_ += 4; v.type = Value::Bool; v.b = true; return v; }
        if (s_.compare(i_, 5, "false") == 0) { i_ += 5; v.type = Value::Bool; return v; }
        if (s_.compare(i_, 4, "null") == 0) { i_ += 4; return v; }
        size_t start = i_;
        while (i_ < s_.size() && (isdigit(static_cast<unsigned char>(s_[i_])) || s_[i_] == '-' || s_[i_] == '+' || s_[i_] == '.' || s_[i_] == 'e' || s_[i_] == 'E')) ++i_;
        if (start == i_) throw std::runtime_error("bad value at " + std::to_string(i_));
        v.type = Value::Number;
        v.raw = s_.substr(start, i_ - start);
        v.num = std::stod(v.raw);
        return v;
    }
    const std::string& s_;
    size_t i_ = 0;
};

inline Value parse(const std::string& s) { return Parser(s).parse(); }

}  // namespace testjson
