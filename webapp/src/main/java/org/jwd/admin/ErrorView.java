package org.jwd.admin;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * Every refusal of the admin API: {@code {"error": "..."}}, and for an invalid registration the problems too, one
 * per field, each naming the field, the value and what is expected.
 */
public record ErrorView(String error, @JsonInclude(JsonInclude.Include.NON_NULL) List<String> problems) {
    ErrorView(String error) {
        this(error, null);
    }
}
