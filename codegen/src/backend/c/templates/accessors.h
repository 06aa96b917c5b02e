{#- The constants and static inline functions of one register. -#}
{% macro defines(a) -%}
/* {{ a.comment }} */
{%- for d in a.defines %}
#define {{ d[0] }} {{ d[1] }}
{%- endfor %}
{%- endmacro %}
{% macro params(a, extra) -%}
{%- set all = a.params + extra -%}
{%- if all %}{{ all | join(", ") }}{% else %}void{% endif -%}
{%- endmacro %}
{% macro statements(body) -%}
{%- if body.decl %}
    {{ body.decl }}
{%- endif %}
{%- if body.switch %}
    switch (n) {
{%- for e in body.elements %}
    case {{ e[0] }}: {{ e[1] }} break;
{%- endfor %}
    default: break;
    }
{%- else %}
    {{ body.elements[0][1] }}
{%- endif %}
{%- endmacro %}
{% macro functions(a) -%}
{%- if a.read %}
static inline {{ a.ty }} {{ a.func }}_read({{ params(a, []) }})
{
{{- statements(a.read) }}
    return {{ a.read.result }};
}
{%- endif %}
{%- if a.write %}
static inline void {{ a.func }}_write({{ params(a, [a.ty ~ " value"]) }})
{
{{- statements(a.write) }}
}
{%- endif %}
{%- endmacro %}
