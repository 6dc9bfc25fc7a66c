"""A person's requests about their data (LGPD art. 18), docs/privacy-requests.md:
registering and answering them (services), the access and portability export (export,
document, delivery), what an anonymisation request keeps (keeping) and the dashboard
card (card)."""
