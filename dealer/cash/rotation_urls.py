"""The dealer rotation's URLs (issue 15): the desk's board and its writes, the tablet's sign-in
at the push, and the staff accounts (issue 25): page URLs, mounted at the site's root by
dealer.urls, and their API twins (under /api/ by dealer.api.urls). Listed in docs/api.md,
"Dealer rotation" and "Staff accounts"."""

from __future__ import annotations

from django.urls import URLPattern, path

from dealer.rotation import api, staff_api, staff_views, views

page_urlpatterns: list[URLPattern] = [
    path("floor/dealers/", views.board_page, name="floor-dealers"),
    path("floor/dealers/plan/", views.plan_set, name="rotation-plan"),
    path("floor/dealers/shifts/", views.shift_add, name="rotation-shift-add"),
    path("floor/dealers/shifts/<int:dealer_id>/end/", views.shift_end, name="rotation-shift-end"),
    path("floor/dealers/start/", views.rotation_start, name="rotation-start"),
    path("deal/table/<int:pk>/sign-in/", views.tablet_sign_in, name="deal-sign-in"),
    # staff accounts (issue 25)
    path("staff/", staff_views.staff_page, name="staff"),
    path("staff/new/", staff_views.staff_create, name="staff-create"),
    path("staff/<int:pk>/pin/", staff_views.pin_set, name="staff-pin"),
    path("staff/<int:pk>/deactivate/", staff_views.deactivate, name="staff-deactivate"),
]
api_urlpatterns: list[URLPattern] = [
    path("rotation/", api.RotationBoardApi.as_view(), name="api-rotation"),
    path("rotation/plan/", api.RotationPlanApi.as_view(), name="api-rotation-plan"),
    path("rotation/shifts/", api.RotationShiftsApi.as_view(), name="api-rotation-shifts"),
    path(
        "rotation/shifts/<int:dealer_id>/end/",
        api.RotationShiftEndApi.as_view(),
        name="api-rotation-shift-end",
    ),
    path("rotation/start/", api.RotationStartApi.as_view(), name="api-rotation-start"),
    path("tables/<int:pk>/sign-in/", api.TableSignInApi.as_view(), name="api-table-sign-in"),
    path("staff/", staff_api.StaffApi.as_view(), name="api-staff"),
    path("staff/<int:pk>/pin/", staff_api.StaffPinApi.as_view(), name="api-staff-pin"),
    path(
        "staff/<int:pk>/deactivate/",
        staff_api.StaffDeactivateApi.as_view(),
        name="api-staff-deactivate",
    ),
]
