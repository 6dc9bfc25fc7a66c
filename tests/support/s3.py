"""A real S3-compatible server over HTTP (moto's server mode) for the document tests."""

import socket

import pytest
from moto.server import ThreadedMotoServer

from claims.documents import storage

BUCKET = "sinistros-teste"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def s3_server():
    port = free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    yield f"http://127.0.0.1:{port}"
    server.stop()


def use_s3(settings, endpoint: str):
    """Point the documents at the bucket (created if needed); returns the boto3 client."""
    settings.DOCUMENT_STORAGE = "s3"
    settings.AWS_S3_ENDPOINT_URL = endpoint
    settings.AWS_STORAGE_BUCKET_NAME = BUCKET
    settings.AWS_ACCESS_KEY_ID = "teste"
    settings.AWS_SECRET_ACCESS_KEY = "teste-segredo"
    settings.AWS_S3_REGION_NAME = "us-east-1"
    settings.STORAGES = {
        **settings.STORAGES,
        "default": {"BACKEND": "storages.backends.s3.S3Storage", "OPTIONS": {
            "bucket_name": BUCKET, "endpoint_url": endpoint, "access_key": "teste",
            "secret_key": "teste-segredo", "region_name": "us-east-1",
            "querystring_expire": 300, "addressing_style": "path"}},
    }
    client = storage.s3_client()
    try:
        client.create_bucket(Bucket=BUCKET)
    except client.exceptions.BucketAlreadyOwnedByYou:
        pass
    return client


def empty_bucket(client) -> None:
    for item in client.list_objects_v2(Bucket=BUCKET).get("Contents", []):
        client.delete_object(Bucket=BUCKET, Key=item["Key"])
