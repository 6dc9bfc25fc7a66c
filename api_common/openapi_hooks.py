"""drf-spectacular post-processing: path parameters named as in the contract.

Django URL converters need Python identifiers (``sale_id``, ``number``, ...); the
contract calls them ``{id-venda}``, ``{numero-sinistro}``, ``{id-webhook}``...
"""

CONTRACT_PATH_PARAMETERS = {
    "sale_id": "id-venda",
    "number": "numero-sinistro",
    "subscription_id": "id-webhook",
    "delivery_id": "id-entrega",
    "file_id": "id",
}


def contract_path_parameters(result, generator, request, public):
    paths = {}
    for path, operations in result.get("paths", {}).items():
        for code_name, contract_name in CONTRACT_PATH_PARAMETERS.items():
            path = path.replace(f"{{{code_name}}}", f"{{{contract_name}}}")
        for operation in operations.values():
            if not isinstance(operation, dict):
                continue
            for parameter in operation.get("parameters", []):
                if parameter.get("in") == "path":
                    parameter["name"] = CONTRACT_PATH_PARAMETERS.get(
                        parameter["name"], parameter["name"]
                    )
        paths[path] = operations
    result["paths"] = paths
    return result
