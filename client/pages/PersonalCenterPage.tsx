/** Personal center for a reader who is not signed in: what signing in gives, and where to do it. */
export default function PersonalCenterPage() {
  return (
    <section className="personal-center" aria-labelledby="personal-title">
      <h1 id="personal-title" className="page-title">
        个人中心
      </h1>
      <p>登录后可查看您的收藏、订阅的专栏和标签，并管理个人资料。</p>
      <p className="personal-center__hint">请点击页面右上角的“订阅”，使用微信扫码登录。</p>
    </section>
  );
}
