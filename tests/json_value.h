#pragma once
// JSON for tests, read strictly by nlohmann::json (RFC 8259: well-formed UTF-8, control characters
// escaped, \u escapes and surrogate pairs decoded, nothing after the document): what the CLI and the
// viewer write must parse here. The values keep their keys in document order and each number's text.

#include <nlohmann/json.hpp>

#include <cstdint>
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

// nlohmann's SAX events built into Values: unlike nlohmann::json itself it keeps duplicate keys,
// key order and the text of every number.
class Builder : public nlohmann::json_sax<nlohmann::json> {
public:
    Value root;

    bool null() override { return add(Value{}); }
    bool boolean(bool v) override {
        Value x;
        x.type = Value::Bool;
        x.b = v;
        return add(std::move(x));
    }
    bool number_integer(number_integer_t v) override { return number(double(v), std::to_string(v)); }
    bool number_unsigned(number_unsigned_t v) override { return number(double(v), std::to_string(v)); }
    bool number_float(number_float_t v, const string_t& text) override { return number(v, text); }
    bool string(string_t& v) override {
        Value x;
        x.type = Value::String;
        x.str = v;
        return add(std::move(x));
    }
    bool binary(binary_t&) override { throw std::runtime_error("binary value in JSON text"); }
    bool start_object(std::size_t) override { return open(Value::Object); }
    bool key(string_t& k) override {
        key_ = k;
        return true;
    }
    bool end_object() override { return close(); }
    bool start_array(std::size_t) override { return open(Value::Array); }
    bool end_array() override { return close(); }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e) override {
        throw std::runtime_error(e.what());
    }

private:
    bool number(double v, const std::string& text) {
        Value x;
        x.type = Value::Number;
        x.num = v;
        x.raw = text;
        return add(std::move(x));
    }
    // The value's place: the root, the next item of the open array, or the open object's key.
    Value* place(Value&& v) {
        if (stack_.empty()) {
            root = std::move(v);
            return &root;
        }
        Value& top = *stack_.back();
        if (top.type == Value::Array) {
            top.arr.push_back(std::move(v));
            return &top.arr.back();
        }
        top.obj.emplace_back(key_, std::move(v));
        return &top.obj.back().second;
    }
    bool add(Value&& v) {
        place(std::move(v));
        return true;
    }
    bool open(Value::Type t) {
        Value x;
        x.type = t;
        stack_.push_back(place(std::move(x)));  // only the innermost container grows
        return true;
    }
    bool close() {
        stack_.pop_back();
        return true;
    }
    std::vector<Value*> stack_;
    std::string key_;
};

// Throws std::runtime_error with nlohmann's message for text that is not JSON.
inline Value parse(const std::string& s) {
    Builder b;
    nlohmann::json::sax_parse(s, &b);
    return std::move(b.root);
}

}  // namespace testjson
