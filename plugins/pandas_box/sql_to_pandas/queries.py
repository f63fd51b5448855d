"""SELECT statements and set operations written as pandas, step by step.

Each query assigns its rows to one variable (`result` at the top, `subquery`,
`part`, ... inside), as a DataFrame with a default index, columns named as
SQLite names them. The steps follow SQL's logical order: FROM and JOIN,
WHERE, GROUP BY and aggregates, HAVING, SELECT, DISTINCT, ORDER BY, LIMIT.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlglot import exp

from plugins.pandas_box.sql_to_pandas.aggregates import (
    aggregate_method,
    aggregate_parts,
    aggregates_in,
    columns_outside_aggregates,
    numeric_if_text,
    unique_by_sql,
)
from plugins.pandas_box.sql_to_pandas.contexts import (
    AGGREGATE_KINDS,
    GroupedContext,
    RowContext,
    WholeFrameContext,
    column_sql,
)
from plugins.pandas_box.sql_to_pandas.errors import UntranslatableSql
from plugins.pandas_box.sql_to_pandas.expressions import (
    Context,
    Expr,
    ExpressionTranslator,
    construct_name,
)
from plugins.pandas_box.sql_to_pandas.joins import prefixed, split_join_condition
from plugins.pandas_box.sql_to_pandas.naming import (
    OrderKey,
    dataframe_code,
    frame_column,
    keys_code,
    output_name,
    readable,
    sort_code,
    sql_text,
    unique_name,
    unique_names,
)
from plugins.pandas_box.sql_to_pandas.program import Program
from plugins.pandas_box.sql_to_pandas.scope import Catalog, Relation, Scope, ValueKind


@dataclass(frozen=True)
class QueryOutput:
    """Where a translated query left its rows, and the names and kinds of its columns."""

    variable: str
    columns: list[str]
    kinds: list[ValueKind]
    one_row: bool = False


class QueryTranslator:
    """Writes the pandas program of SQL queries over the BOXes of `catalog`."""

    def __init__(self, catalog: Catalog, program: Program) -> None:
        self.catalog = catalog
        self.program = program

    def query(self, node: exp.Expression, target: str, outer: Scope | None = None) -> QueryOutput:
        """Write the program of query `node`, leaving its rows in `target`."""
        if isinstance(node, exp.Subquery):
            return self.query(node.this, target, outer)
        if isinstance(node, exp.SetOperation):
            return self._set_operation(node, target, outer)
        if isinstance(node, exp.Select):
            return self._select(node, target, outer)
        raise UntranslatableSql(construct_name(node), sql_text(node))

    def _select(self, node: exp.Select, target: str, outer: Scope | None) -> QueryOutput:
        for unsupported in ("with_", "windows", "distribute", "qualify"):
            if node.args.get(unsupported):
                raise UntranslatableSql(unsupported.rstrip("_").upper(), sql_text(node))
        if any(node.find_all(exp.Window)):
            raise UntranslatableSql("a window function", sql_text(node))
        distinct = node.args.get("distinct")
        if distinct is not None and distinct.args.get("on"):
            raise UntranslatableSql("DISTINCT ON", sql_text(node))
        frame = "frame" if target == "result" else f"{target}_frame"
        scope = self._from(node, frame, outer)
        row_context = RowContext(scope)
        where = node.args.get("where")
        if where is not None:
            self._filter(frame, where.this, row_context, f"WHERE {sql_text(where.this)}")
        context = self._aggregation(node, scope, target)
        items = self._select_items(node, scope)
        names = unique_names([name for name, _ in items])
        translator = self._translator(context, scope)
        values = [translator.translate(expression) for _, expression in items]
        order_keys, hidden = self._order_keys(node, items, names, translator)
        self.program.step(
            "SELECT " + ", ".join(sql_text(expression) for expression in node.expressions)
        )
        whole_frame = isinstance(context, WholeFrameContext)
        columns = {**dict(zip(names, values, strict=True)), **hidden}
        self.program.line(f"{target} = {dataframe_code(columns, whole_frame, frame)}")
        if distinct is not None:
            self.program.step("DISTINCT: drop duplicate rows")
            subset = f"subset={names!r}" if hidden else ""
            self.program.line(f"{target} = {target}.drop_duplicates({subset})")
        self._finish(node, target, order_keys, list(hidden), isinstance(context, GroupedContext))
        return QueryOutput(target, names, [value.kind for value in values], whole_frame)

    def _translator(self, context: Context, scope: Scope) -> ExpressionTranslator:
        return ExpressionTranslator(context, lambda query: self._subquery(query, scope))

    def _subquery(self, node: exp.Expression, scope: Scope) -> tuple[str, bool]:
        target = self.program.fresh("subquery")
        self.program.step(f"{target}: {sql_text(node)}")
        output = self.query(node, target, scope)
        return output.variable, output.one_row

    def _from(self, node: exp.Select, frame: str, outer: Scope | None) -> Scope:
        from_clause = node.args.get("from_") or node.args.get("from")
        if from_clause is None:
            raise UntranslatableSql("SELECT without FROM", sql_text(node))
        joins = node.args.get("joins") or []
        scope = Scope(frame, [], outer)
        sources = [
            self._relation(item, outer) for item in [from_clause.this, *(j.this for j in joins)]
        ]
        scope.relations.extend(relation for relation, _ in sources)
        first, first_code = sources[0]
        if not joins:
            self.program.step(f"FROM {sql_text(from_clause.this)}")
            self.program.line(f"{frame} = {first_code}")
            return scope
        self.program.step(
            f"FROM {sql_text(from_clause.this)}: columns named after their table, as in the SQL"
        )
        self.program.line(f"{frame} = {prefixed(first_code, first)}")
        for position, join in enumerate(joins, start=1):
            self._join(join, scope, position, sources[position][1])
        return scope

    def _relation(self, node: exp.Expression, outer: Scope | None) -> tuple[Relation, str]:
        """A FROM item as a relation and the code of its rows (a BOX or a subquery)."""
        if isinstance(node, exp.Table):
            if node.args.get("db"):
                raise UntranslatableSql("a table of another schema", sql_text(node))
            box = self.catalog.box(node.name)
            return self.catalog.relation(node.name, node.alias_or_name), box.name
        if isinstance(node, exp.Subquery):
            target = self.program.fresh("subquery")
            self.program.step(f"{target}: {sql_text(node.this)}")
            output = self.query(node.this, target, outer)
            qualifier = node.alias_or_name or target
            return Relation(qualifier, dict(zip(output.columns, output.kinds, strict=True))), target
        raise UntranslatableSql(f"{construct_name(node)} in FROM", sql_text(node))

    def _join(self, join: exp.Join, scope: Scope, position: int, code: str) -> None:
        if join.args.get("using"):
            raise UntranslatableSql("JOIN ... USING", sql_text(join))
        side = (join.side or "").upper()
        kind = (join.kind or "").upper()
        if side not in ("", "LEFT") or kind in ("NATURAL", "FULL"):
            raise UntranslatableSql(f"{side or kind} JOIN", sql_text(join))
        joined = scope.relations[position]
        known = Scope(scope.frame, scope.relations[:position], prefixed=True)
        condition = join.args.get("on")
        left_keys, right_keys, leftover = split_join_condition(condition, known, joined)
        on_text = f" ON {sql_text(condition)}" if condition is not None else ""
        self.program.step(f"{side + ' ' if side else ''}JOIN {sql_text(join.this)}{on_text}")
        right = prefixed(code, joined)
        if left_keys:
            arguments = f"left_on={keys_code(left_keys)}, right_on={keys_code(right_keys)}"
            how = ", how='left'" if side == "LEFT" else ""
            self.program.line(f"{scope.frame} = {scope.frame}.merge({right}, {arguments}{how})")
        else:
            self.program.line(f"{scope.frame} = {scope.frame}.merge({right}, how='cross')")
        if leftover is not None:
            if side == "LEFT":
                raise UntranslatableSql("LEFT JOIN on a condition other than equal columns")
            so_far = Scope(scope.frame, scope.relations[: position + 1], scope.outer, prefixed=True)
            self._filter(scope.frame, leftover, RowContext(so_far), "keep rows where ON holds")

    def _filter(
        self, frame: str, condition: exp.Expression, context: Context, comment: str
    ) -> None:
        translated = self._translator(context, context.scope).condition(condition)
        self.program.step(comment)
        if translated.scalar:
            self.program.line(f"{frame} = {frame} if {translated.code} else {frame}.iloc[0:0]")
        else:
            self.program.line(f"{frame} = {frame}[{translated.code}]")

    def _aggregation(self, node: exp.Select, scope: Scope, target: str) -> Context:
        """Compute groups and aggregates when the query has them; the context to read them."""
        group = node.args.get("group")
        having = node.args.get("having")
        parts = [*node.expressions, *(having.this for having in [having] if having is not None)]
        order = node.args.get("order")
        if order is not None:
            parts.extend(ordered.this for ordered in order.expressions)
        aggregates = unique_by_sql([a for part in parts for a in aggregates_in(part)])
        if group is None and not aggregates:
            if having is not None:
                raise UntranslatableSql("HAVING without aggregates", sql_text(having))
            return RowContext(scope)
        bare = self._bare_columns(parts, group, scope)
        self._sort_for_extreme(aggregates, bare, scope)
        if group is None:
            context = WholeFrameContext(
                scope,
                {
                    column_sql(aggregate): self._whole_frame_aggregate(aggregate, scope)
                    for aggregate in aggregates
                },
            )
            if having is not None:
                self._filter(scope.frame, having.this, context, f"HAVING {sql_text(having.this)}")
            return context
        grouped = "grouped" if target == "result" else f"{target}_grouped"
        context = self._group(group, aggregates, bare, scope, grouped, node)
        if having is not None:
            self._filter(grouped, having.this, context, f"HAVING {sql_text(having.this)}")
        return context

    def _bare_columns(
        self, parts: list[exp.Expression], group: exp.Group | None, scope: Scope
    ) -> list[exp.Column]:
        """Columns used outside aggregates that are not group keys (SQLite allows them)."""
        keys = {column_sql(key) for key in (group.expressions if group else [])}
        resolved_keys = set()
        for key in group.expressions if group else []:
            if isinstance(key, exp.Column):
                found = scope.resolve(key.table or None, key.name)
                if found:
                    resolved_keys.add(found.key)
        bare = []
        for part in parts:
            for column in columns_outside_aggregates(part):
                found = scope.resolve(column.table or None, column.name)
                if found is None or column_sql(column) in keys or found.key in resolved_keys:
                    continue
                bare.append(column)
        return unique_by_sql(bare)

    def _sort_for_extreme(
        self, aggregates: list[exp.AggFunc], bare: list[exp.Column], scope: Scope
    ) -> None:
        """With one MIN or MAX, SQLite takes bare columns from the row holding it."""
        if not bare or len(aggregates) != 1 or not isinstance(aggregates[0], exp.Max | exp.Min):
            return
        argument = ExpressionTranslator(RowContext(scope), lambda q: ("", False)).translate(
            aggregates[0].this
        )
        ascending = isinstance(aggregates[0], exp.Min)
        self.program.step(
            f"bare columns come from the row with the {'MIN' if ascending else 'MAX'}, as in SQLite"
        )
        self.program.line(
            f"{scope.frame} = {scope.frame}.loc[{argument.code}.sort_values("
            f"ascending={ascending}, na_position='last', kind='stable').index]"
        )

    def _whole_frame_aggregate(self, aggregate: exp.AggFunc, scope: Scope) -> Expr:
        """The single value of `aggregate` over the whole frame."""
        function, argument, distinct = aggregate_parts(aggregate)
        if argument is None:
            return Expr(f"len({scope.frame})", "integer", True)
        values = self._translator(RowContext(scope), scope).translate(argument)
        if values.scalar:
            raise UntranslatableSql("an aggregate of a constant", sql_text(aggregate))
        series = numeric_if_text(values, function)
        if distinct and function != "count":
            series = f"{series}.drop_duplicates()"
        method = aggregate_method(function, distinct)
        return Expr(f"{series}.{method}", AGGREGATE_KINDS.get(function, values.kind), True)

    def _group(
        self,
        group: exp.Group,
        aggregates: list[exp.AggFunc],
        bare: list[exp.Column],
        scope: Scope,
        grouped: str,
        node: exp.Select,
    ) -> GroupedContext:
        row = self._translator(RowContext(scope), scope)
        aliases = {
            item.alias.lower(): item.this
            for item in node.expressions
            if isinstance(item, exp.Alias)
        }
        key_names: list[str] = []
        computed: dict[str, tuple[str, str]] = {}
        inputs: dict[str, str] = {}
        for position, key in enumerate(group.expressions, start=1):
            expression = key
            if (
                isinstance(key, exp.Column)
                and not key.table
                and scope.resolve(None, key.name) is None
            ):
                expression = aliases.get(key.name.lower(), key)
            value = row.translate(expression)
            name = frame_column(value.code, scope.frame)
            if name is None:
                name = f"group_{position}"
                inputs[name] = value.code
            key_names.append(name)
            computed[column_sql(key)] = (name, value.kind)
            computed[column_sql(expression)] = (name, value.kind)
        series: dict[str, str] = {}
        groups = "groups" if grouped == "grouped" else grouped.replace("grouped", "groups")
        for aggregate in aggregates:
            function, argument, distinct = aggregate_parts(aggregate)
            if distinct and function != "count":
                raise UntranslatableSql(
                    f"{function.upper()}(DISTINCT ...) per group", sql_text(aggregate)
                )
            if argument is None:
                name = unique_name("count_rows", series)
                series[name] = f"{groups}.size()"
                computed[column_sql(aggregate)] = (name, "integer")
                continue
            value = row.translate(argument)
            column = frame_column(value.code, scope.frame)
            if value.kind == "text" and function in ("sum", "avg"):
                column = None
                value = Expr(numeric_if_text(value, function), "float", False)
            if column is None:
                column = unique_name(f"{function}_input", inputs)
                inputs[column] = value.code
            name = unique_name(f"{function}_{readable(column)}", series)
            series[name] = f"{groups}[{column!r}].{aggregate_method(function, distinct)}"
            computed[column_sql(aggregate)] = (name, AGGREGATE_KINDS.get(function, value.kind))
        for column in bare:
            found = scope.resolve(column.table or None, column.name)
            assert found is not None
            if found.key not in series:
                series[found.key] = f"{groups}[{found.key!r}].first(skipna=False)"
            computed[column_sql(column)] = (found.key, found.kind)
        if inputs:
            self.program.step("values the grouping and the aggregates need")
            assignments = ", ".join(f"{name}={code}" for name, code in inputs.items())
            self.program.line(f"{scope.frame} = {scope.frame}.assign({assignments})")
        self.program.step(
            f"GROUP BY {', '.join(sql_text(key) for key in group.expressions)}"
            + (
                ": " + ", ".join(sql_text(a) for a in aggregates) + " per group"
                if aggregates
                else ""
            )
        )
        self.program.line(f"{groups} = {scope.frame}.groupby({keys_code(key_names)}, dropna=False)")
        if series:
            body = ", ".join(f"{name!r}: {code}" for name, code in series.items())
            self.program.line(f"{grouped} = pd.DataFrame({{{body}}}).reset_index()")
        else:
            self.program.line(f"{grouped} = {scope.frame}[{key_names!r}].drop_duplicates()")
        return GroupedContext(grouped, computed, scope)

    def _select_items(self, node: exp.Select, scope: Scope) -> list[tuple[str, exp.Expression]]:
        """(output name, expression) of every SELECT item, `*` expanded."""
        items: list[tuple[str, exp.Expression]] = []
        for item in node.expressions:
            if isinstance(item, exp.Star):
                relations = scope.relations
            elif isinstance(item, exp.Column) and isinstance(item.this, exp.Star):
                relations = [scope.relation(item.table)]
            else:
                items.append(
                    (output_name(item), item.this if isinstance(item, exp.Alias) else item)
                )
                continue
            for relation in relations:
                for column in relation.columns:
                    items.append((column, exp.column(column, relation.qualifier, quoted=True)))
        return items

    def _order_keys(
        self,
        node: exp.Expression,
        items: list[tuple[str, exp.Expression]],
        names: list[str],
        translator: ExpressionTranslator | None,
    ) -> tuple[list[OrderKey], dict[str, Expr]]:
        """ORDER BY as result columns; expressions not selected become hidden columns."""
        order = node.args.get("order")
        keys: list[OrderKey] = []
        hidden: dict[str, Expr] = {}
        if order is None:
            return keys, hidden
        by_alias = {name.lower(): name for name in names}
        by_sql = {
            column_sql(expression): name for (_, expression), name in zip(items, names, strict=True)
        }
        for ordered in order.expressions:
            expression = ordered.this
            ascending = not ordered.args.get("desc")
            if isinstance(expression, exp.Literal) and not expression.is_string:
                column = names[int(expression.this) - 1]
            elif column_sql(expression) in by_sql:
                column = by_sql[column_sql(expression)]
            elif (
                isinstance(expression, exp.Column)
                and not expression.table
                and expression.name.lower() in by_alias
            ):
                column = by_alias[expression.name.lower()]
            elif translator is None:
                raise UntranslatableSql(
                    "ORDER BY an expression that is not selected", sql_text(expression)
                )
            else:
                column = unique_name("order_key", hidden)
                hidden[column] = translator.translate(expression)
            keys.append(OrderKey(column, ascending))
        return keys, hidden

    def _finish(
        self,
        node: exp.Expression,
        target: str,
        keys: list[OrderKey],
        hidden: list[str],
        grouped: bool = False,
    ) -> None:
        """ORDER BY (NULL is the smallest value), LIMIT/OFFSET, a fresh index."""
        if keys and grouped and not any(key.ascending for key in keys):
            self.program.step(
                "SQLite lists tied groups last group first when sorting groups descending"
            )
            self.program.line(f"{target} = {target}.iloc[::-1]")
        if keys:
            order = node.args["order"]
            self.program.step(
                f"ORDER BY {', '.join(sql_text(o) for o in order.expressions)}"
                + " (NULL is the smallest value, as in SQLite)"
            )
            self.program.line(f"{target} = {target}{sort_code(keys)}")
        if hidden:
            self.program.line(f"{target} = {target}.drop(columns={hidden!r})")
        limit = node.args.get("limit")
        offset = node.args.get("offset")
        if limit is not None or offset is not None:
            count = int(limit.expression.this) if limit is not None else None
            start = int(offset.expression.this) if offset is not None else 0
            self.program.step(
                (f"LIMIT {count}" if count is not None else "")
                + (f" OFFSET {start}" if start else "")
            )
            if start == 0:
                self.program.line(f"{target} = {target}.head({count})")
            else:
                end = "" if count is None else str(start + count)
                self.program.line(f"{target} = {target}.iloc[{start}:{end}]")
        self.program.line(f"{target} = {target}.reset_index(drop=True)")

    def _set_operation(
        self, node: exp.SetOperation, target: str, outer: Scope | None
    ) -> QueryOutput:
        left = self.query(node.this, self.program.fresh("part"), outer)
        right = self.query(node.expression, self.program.fresh("part"), outer)
        aligned = f"{right.variable}.set_axis({left.variable}.columns, axis=1)"
        distinct = node.args.get("distinct", True)
        if isinstance(node, exp.Union):
            self.program.step(
                "UNION: rows of either query" + (", without duplicates" if distinct else "")
            )
            code = f"pd.concat([{left.variable}, {aligned}], ignore_index=True)"
            self.program.line(f"{target} = {code}" + (".drop_duplicates()" if distinct else ""))
        elif isinstance(node, exp.Intersect):
            self.program.step("INTERSECT: distinct rows found by both queries")
            self.program.line(
                f"{target} = {left.variable}.drop_duplicates().merge({aligned}.drop_duplicates())"
            )
        else:
            self.program.step("EXCEPT: distinct rows of the first query missing from the second")
            self.program.line(
                f"{target} = {left.variable}.drop_duplicates().merge("
                f"{aligned}.drop_duplicates(), how='left', indicator=True)"
            )
            self.program.line(
                f"{target} = {target}[{target}['_merge'] == 'left_only'].drop(columns='_merge')"
            )
        first_select = node.find(exp.Select)
        items = [
            (name, expression)
            for name, expression in zip(
                left.columns,
                [e.this if isinstance(e, exp.Alias) else e for e in first_select.expressions],
                strict=False,
            )
        ]
        if len(items) != len(left.columns):
            items = [(name, exp.column(name)) for name in left.columns]
        keys, _ = self._order_keys(node, items, left.columns, None)
        self._finish(node, target, keys, [])
        return QueryOutput(target, left.columns, left.kinds)
