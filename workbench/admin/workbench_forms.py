"""Forms of the analysts' workbench on the claim page: notes, tasks, owners, proposals.
Rules live in the services; these only read what a person typed."""

from django import forms
from django.utils import timezone

from claims.formatting import person
from workbench.services.assignment import assignable_people
from claims.services.notes import NOTE_MAX_LENGTH


class PersonChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, user):
        return person(user)


class NoteForm(forms.Form):
    text = forms.CharField(label="Nota interna", max_length=NOTE_MAX_LENGTH,
                           widget=forms.Textarea(attrs={"rows": 3}),
                           help_text="Só a equipe vê. Não se edita nem se apaga: uma nova nota "
                                     "corrige a anterior.")


class ToDoForm(forms.Form):
    subject = forms.CharField(label="Assunto", max_length=200)
    # A date input keeps only ISO dates ("2026-11-23"): anything else shows it empty.
    due_on = forms.DateField(label="Vence em", widget=forms.DateInput(
        format="%Y-%m-%d", attrs={"type": "date"}))
    owner = PersonChoiceField(label="Responsável", queryset=assignable_people(),
                              required=False, empty_label="Eu mesmo")
    note = forms.CharField(label="Observação", required=False,
                           widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args, user=None, **kwargs):
        """``user``: who reads the form; they are "Eu mesmo", not listed twice."""
        super().__init__(*args, **kwargs)
        people = assignable_people()
        if user is not None:
            people = people.exclude(pk=user.pk)
            self.fields["owner"].empty_label = f"Eu mesmo ({person(user)})"
        self.fields["owner"].queryset = people
        today = timezone.localdate()
        self.fields["due_on"].initial = today
        self.fields["due_on"].widget.attrs["min"] = today.isoformat()  # the browser says so first


class CloseToDoForm(forms.Form):
    note = forms.CharField(label="Observação", required=False, max_length=1000)


NOBODY = "ninguem"


class ReassignForm(forms.Form):
    """The new owner is always a choice made: "Ninguém" is one of the options, never
    what a form sent as it came (a supervisor who only typed a reason)."""

    to_user = forms.ChoiceField(label="Novo responsável")
    reason = forms.CharField(label="Motivo", max_length=500,
                             widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args, user, **kwargs):
        """``user``: the supervisor, offered the people of the teams they lead."""
        super().__init__(*args, **kwargs)
        self.people = {str(person.pk): person for person in assignable_people(user)}
        self.fields["to_user"].choices = [
            ("", "Escolha…"), *((pk, person(someone)) for pk, someone in self.people.items()),
            (NOBODY, "Ninguém (deixar sem responsável)")]

    def clean_to_user(self):
        chosen = self.cleaned_data["to_user"]
        return None if chosen == NOBODY else self.people[chosen]


class ProposalDecisionForm(forms.Form):
    decision = forms.ChoiceField(choices=[("aprovar", "Aprovar"), ("rejeitar", "Rejeitar")],
                                 widget=forms.HiddenInput)
    reason = forms.CharField(label="Motivo (obrigatório para rejeitar)", required=False,
                             max_length=1000, widget=forms.Textarea(attrs={"rows": 2}))
